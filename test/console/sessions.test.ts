import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { csrfToken, FormClient } from '../helpers/forms.js';
import { plain } from '../helpers/html.js';
import { request } from '../helpers/http.js';
import { createConsoleUser, setPassword, signedInUser, signIn, signOut } from './console-helpers.js';

const PASSWORD = 'correct horse battery';

suiteOnEachDatabase('console sessions: set a password, sign in, sign out, disable', { env: { TRUST_PROXY: '127.0.0.1' } }, ({ server, creds, cliEnv }) => {
  test('the CLI link sets a password once; signing in shows the user; after sign-out the old cookie opens nothing', async () => {
    const { printed, path } = await createConsoleUser(cliEnv, creds.tenant, 'Ada@Example.test', 'admin');
    assert.deepEqual(Object.keys(printed).sort(), ['email', 'role', 'setPasswordUrl']);
    assert.equal(printed.email, 'ada@example.test');
    assert.equal(printed.role, 'admin');
    // Without PUBLIC_BASE_URL, the link is on the server's own address (HOST and PORT).
    assert.match(printed.setPasswordUrl, /^http:\/\/127\.0\.0\.1:3000\/console\/set-password\/[A-Za-z0-9_-]{43}$/);

    const browser = new FormClient(server.url);
    const form = await browser.get(path);
    assert.equal(form.status, 200);
    assert.match(plain(form.html), /Choose a password for ada@example\.test/);

    const short = await setPassword(browser, path, 'elevenchars');
    assert.equal(short.status, 422);
    assert.match(plain(short.html), /The password must have at least 12 characters/);
    const set = await setPassword(browser, path, PASSWORD);
    assert.equal(set.status, 303);
    assert.equal(set.location, '/console/login?done=password');
    // Used: the link opens nothing now, and its form sets nothing.
    assert.equal((await browser.get(path)).status, 410);

    const res = await signIn(browser, 'ADA@example.test', PASSWORD);
    assert.equal(res.status, 303, res.html.slice(0, 300));
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('assay_console='));
    assert.ok(cookie, 'a session cookie');
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.match(cookie, /Path=\/console/i);

    const home = await browser.get('/console');
    assert.equal(home.status, 200);
    assert.match(plain(home.html), /Signed in as ada@example\.test Role Administrator/);
    const stolen = browser.cookieHeader();
    assert.equal((await request(`${server.url}/console`, { headers: { cookie: stolen } })).status, 200, 'the cookie works while signed in');

    const out = await signOut(browser);
    assert.equal(out.status, 303);
    assert.equal(out.location, '/console/login?done=signed-out');
    const replay = await request(`${server.url}/console`, { headers: { cookie: stolen } });
    assert.equal(replay.status, 303, 'the session ended on the server');
    assert.equal(replay.headers.get('location'), '/console/login');

    // Each step is in the tenant's audit log: who, what, from where.
    const user = await server.running.deps.store.db.selectFrom('console_users').select('id').where('email', '=', 'ada@example.test').executeTakeFirstOrThrow();
    const audit = await server.running.deps.store.db.selectFrom('console_audit').selectAll().where('user_id', '=', user.id).orderBy('at').execute();
    assert.deepEqual(
      audit.map((a) => [a.action, a.address, a.tenant_id]),
      [
        ['password.set', '127.0.0.1', creds.tenantId],
        ['sign-in', '127.0.0.1', creds.tenantId],
        ['sign-out', '127.0.0.1', creds.tenantId],
      ],
    );
  });

  test('a new session id at every sign-in, even over one planted in the browser, in a __Host- Secure cookie over HTTPS', async () => {
    const { path } = await createConsoleUser(cliEnv, creds.tenant, 'grace@example.test');
    const https = { 'x-forwarded-proto': 'https' };
    assert.equal((await setPassword(new FormClient(server.url, https), path, PASSWORD)).status, 303);
    // A browser that carries a session id someone else chose (a planted cookie) and signs in.
    const planted = '__Host-assay_console=chosen-by-an-attacker';
    const page = await fetch(`${server.url}/console/login`, { headers: { ...https, cookie: planted } });
    assert.equal(page.status, 200);
    const csrfCookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
    const res = await fetch(`${server.url}/console/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...https, cookie: `${planted}; ${csrfCookie}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrfToken(await page.text()), email: 'grace@example.test', password: PASSWORD }).toString(),
    });
    assert.equal(res.status, 303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-assay_console='));
    assert.ok(cookie, `a __Host- cookie: ${res.headers.getSetCookie().join(' | ')}`);
    assert.match(cookie, /; Secure/i);
    assert.match(cookie, /; HttpOnly/i);
    assert.match(cookie, /Path=\/(;|$)/);
    assert.doesNotMatch(cookie, /Domain=/i);
    const id = cookie.split(';')[0]!;
    assert.notEqual(id, planted);
    assert.equal((await request(`${server.url}/console`, { headers: { ...https, cookie: planted } })).status, 303, 'the planted id opens nothing');
    assert.equal((await request(`${server.url}/console`, { headers: { ...https, cookie: id } })).status, 200);

    // Another sign-in of the same user: another id.
    const again = new FormClient(server.url, https);
    assert.equal((await signIn(again, 'grace@example.test', PASSWORD)).status, 303);
    assert.ok(!again.cookieHeader().includes(id), 'a second sign-in gets an id of its own');
  });

  test("disabling a user ends their live session at once; reset's link enables them again", async () => {
    const browser = await signedInUser(server.url, cliEnv, creds.tenant, 'linus@example.test', PASSWORD);
    const colleague = await signedInUser(server.url, cliEnv, creds.tenant, 'margaret@example.test', PASSWORD);
    assert.equal((await browser.get('/console')).status, 200);
    const disabled = await runCli(['console-user', 'disable', '--email', 'linus@example.test', '--json'], cliEnv);
    assert.equal(disabled.code, 0, disabled.stderr);
    const after = await browser.get('/console');
    assert.equal(after.status, 303);
    assert.equal(after.location, '/console/login');
    assert.equal((await colleague.get('/console')).status, 200, "another user's session goes on");
    assert.equal((await signIn(new FormClient(server.url), 'linus@example.test', PASSWORD)).status, 401, 'a disabled user cannot sign in');

    const reset = await runCli(['console-user', 'reset', '--email', 'linus@example.test', '--json'], cliEnv);
    assert.equal(reset.code, 0, reset.stderr);
    const link = new URL((JSON.parse(reset.stdout) as { setPasswordUrl: string }).setPasswordUrl).pathname;
    const again = new FormClient(server.url);
    assert.equal((await setPassword(again, link, 'a brand new passphrase')).status, 303);
    assert.equal((await signIn(again, 'linus@example.test', 'a brand new passphrase')).status, 303);
    assert.equal((await again.get('/console')).status, 200);
  });

  test('a session ends after its idle time and at its absolute end, and its row goes', async () => {
    const store = server.running.deps.store;
    for (const [email, column] of [
      ['idle@example.test', 'seen_at'],
      ['old@example.test', 'expires_at'],
    ] as const) {
      const browser = await signedInUser(server.url, cliEnv, creds.tenant, email, PASSWORD);
      assert.equal((await browser.get('/console')).status, 200);
      const user = await store.db.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      // 31 minutes without a request (the idle default is 30), or an absolute end a second ago.
      const past = new Date(Date.now() - (column === 'seen_at' ? 31 * 60_000 : 1000)).toISOString();
      await store.write((trx) =>
        trx
          .updateTable('console_sessions')
          .set({ [column]: past })
          .where('user_id', '=', user.id)
          .execute(),
      );
      const res = await browser.get('/console');
      assert.equal(res.status, 303, column);
      assert.equal(res.location, '/console/login');
      const left = await store.db.selectFrom('console_sessions').select('id_hash').where('user_id', '=', user.id).execute();
      assert.equal(left.length, 0, `${column}: the ended session's row is deleted`);
    }
  });

  test('an expired link is refused, and a reset makes earlier links stop working', async () => {
    const first = await createConsoleUser(cliEnv, creds.tenant, 'barbara@example.test');
    const store = server.running.deps.store;
    await store.write((trx) =>
      trx
        .updateTable('console_password_links')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute(),
    );
    const browser = new FormClient(server.url);
    assert.equal((await browser.get(first.path)).status, 410);

    const reset = await runCli(['console-user', 'reset', '--email', 'barbara@example.test', '--json'], cliEnv);
    const second = new URL((JSON.parse(reset.stdout) as { setPasswordUrl: string }).setPasswordUrl).pathname;
    const third = new URL(
      (JSON.parse((await runCli(['console-user', 'reset', '--email', 'barbara@example.test', '--json'], cliEnv)).stdout) as { setPasswordUrl: string })
        .setPasswordUrl,
    ).pathname;
    assert.equal((await browser.get(second)).status, 410, 'replaced by the newer link');
    assert.equal((await browser.get(third)).status, 200, 'the newest link works');
  });
});
