import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { csrfToken, FormClient } from '../helpers/forms.js';
import { plain } from '../helpers/html.js';
import { createConsoleUser, setPassword, signedInUser, signIn } from './console-helpers.js';

const PASSWORD = 'correct horse battery';

suiteOnEachDatabase('console sign-in: one answer for every failure, throttled per account', {}, ({ server, creds, cliEnv }) => {
  test('a wrong password and an unknown e-mail address get the same page', async () => {
    await signedInUser(server.url, cliEnv, creds.tenant, 'known@example.test', PASSWORD);
    const wrong = await signIn(new FormClient(server.url), 'known@example.test', 'not the password at all');
    const unknown = await signIn(new FormClient(server.url), 'nobody@example.test', 'not the password at all');
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    // The page repeats the address typed, and each has its own form token: the rest is the same.
    const same = (html: string, email: string) => html.replaceAll(email, 'EMAIL').replace(/name="_csrf" value="[^"]+"/, '');
    assert.equal(same(wrong.html, 'known@example.test'), same(unknown.html, 'nobody@example.test'));
    assert.match(plain(wrong.html), /The e-mail address or password is not right/);
  });

  test('ten wrong passwords for one user from an address do not stop another user signing in there; the first is throttled', async () => {
    const { path: pathA } = await createConsoleUser(cliEnv, creds.tenant, 'a@example.test');
    const { path: pathB } = await createConsoleUser(cliEnv, creds.tenant, 'b@example.test');
    assert.equal((await setPassword(new FormClient(server.url), pathA, PASSWORD)).status, 303);
    assert.equal((await setPassword(new FormClient(server.url), pathB, PASSWORD)).status, 303);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signIn(new FormClient(server.url), 'a@example.test', `wrong password ${i}`)).status);
    assert.ok(
      statuses.every((s) => s === 401 || s === 429),
      statuses.join(','),
    );
    assert.ok(statuses.includes(429), `ten failures are throttled: ${statuses.join(',')}`);

    const b = new FormClient(server.url);
    const res = await signIn(b, 'b@example.test', PASSWORD);
    assert.equal(res.status, 303, `B signs in from the same address: ${plain(res.html).slice(0, 200)}`);
    assert.equal((await b.get('/console')).status, 200);

    // Positive control: A, with the right password now, is still refused from that address.
    const a = await signIn(new FormClient(server.url), 'a@example.test', PASSWORD);
    assert.equal(a.status, 429);
    assert.match(plain(a.html), /Too many attempts\. Try again in \d+ minutes?\./);
    assert.ok(Number(a.headers.get('retry-after')) > 0);
  });

  test('a post without the CSRF token is refused and changes nothing; with it, the same post works', async () => {
    const browser = await signedInUser(server.url, cliEnv, creds.tenant, 'csrf@example.test', PASSWORD);
    const noToken = await browser.post('/console/logout', {});
    assert.equal(noToken.status, 403);
    const wrongToken = await browser.post('/console/logout', { _csrf: 'forged' });
    assert.equal(wrongToken.status, 403);
    assert.equal((await browser.get('/console')).status, 200, 'still signed in');
    const home = await browser.get('/console');
    const out = await browser.post('/console/logout', { _csrf: csrfToken(home.html) });
    assert.equal(out.status, 303);
    assert.equal((await browser.get('/console')).status, 303, 'signed out');

    // Sign-in and set-password too: no session, no password set without the token.
    const fresh = new FormClient(server.url);
    await fresh.get('/console/login');
    assert.equal((await fresh.post('/console/login', { email: 'csrf@example.test', password: PASSWORD })).status, 403);
    assert.equal((await fresh.get('/console')).status, 303);
    const { path } = await createConsoleUser(cliEnv, creds.tenant, 'csrf2@example.test');
    await fresh.get(path);
    assert.equal((await fresh.post(path, { password: PASSWORD })).status, 403);
    assert.equal((await fresh.get(path)).status, 200, 'the link is still unused');
  });

  test('a form of more than 16 fields is refused before parsing (413); one of 16 is read', async () => {
    const post = (n: number) =>
      fetch(`${server.url}/console/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Array.from({ length: n }, (_, i) => `f${i}=x`).join('&'),
        redirect: 'manual',
      });
    assert.equal((await post(17)).status, 413);
    // Positive control: 16 fields pass the parser and meet the CSRF check instead.
    assert.equal((await post(16)).status, 403);
  });

  test('a form posted from another site is refused even with a valid token', async () => {
    const browser = await signedInUser(server.url, cliEnv, creds.tenant, 'cross@example.test', PASSWORD);
    const home = await browser.get('/console');
    const res = await fetch(`${server.url}/console/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: browser.cookieHeader(), 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrfToken(home.html) }).toString(),
    });
    assert.equal(res.status, 403);
    assert.equal((await browser.get('/console')).status, 200, 'still signed in');
  });
});
