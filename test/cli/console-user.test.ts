import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

suiteOnEachDatabase('bin/assay console-user', {}, ({ server, creds, cliEnv }) => {
  const cli = (...args: string[]) => runCli(['console-user', ...args], cliEnv);

  test('create prints a one-time link on PUBLIC_BASE_URL; the text form says it works once within 24 hours', async () => {
    const json = await runCli(['console-user', 'create', '--tenant', creds.tenant, '--email', 'ops@example.test', '--role', 'viewer', '--json'], {
      ...cliEnv,
      PUBLIC_BASE_URL: 'https://hire.example.test',
    });
    assert.equal(json.code, 0, json.stderr);
    const link = JSON.parse(json.stdout) as Record<string, string>;
    assert.deepEqual({ email: link.email, role: link.role }, { email: 'ops@example.test', role: 'viewer' });
    assert.match(link.setPasswordUrl!, /^https:\/\/hire\.example\.test\/console\/set-password\/[A-Za-z0-9_-]{43}$/);
    // Stored hashed: the token is nowhere in the database.
    const token = link.setPasswordUrl!.split('/').pop()!;
    const rows = await server.running.deps.store.db.selectFrom('console_password_links').selectAll().execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => !JSON.stringify(r).includes(token)));

    const text = await cli('create', '--tenant', creds.tenantId, '--email', 'second@example.test', '--role', 'recruiter');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Created second@example\.test \(recruiter\)\. .*works once, within 24 hours:\n {2}http:\/\/\S+\/console\/set-password\/\S+\n$/);
  });

  test('create refuses a taken address (in any case), an unknown role or tenant, and an address that is none', async () => {
    const taken = await cli('create', '--tenant', creds.tenant, '--email', 'OPS@example.test', '--role', 'admin');
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /exists already/);
    const role = await cli('create', '--tenant', creds.tenant, '--email', 'x@example.test', '--role', 'owner');
    assert.equal(role.code, 1);
    assert.match(role.stderr, /role must be one of admin, recruiter, viewer/);
    const tenant = await cli('create', '--tenant', 'no-such-tenant', '--email', 'y@example.test', '--role', 'admin');
    assert.equal(tenant.code, 1);
    assert.match(tenant.stderr, /No tenant/);
    const email = await cli('create', '--tenant', creds.tenant, '--email', 'not-an-address', '--role', 'admin');
    assert.equal(email.code, 1);
    assert.match(email.stderr, /is not an e-mail address/);
  });

  test('list shows the users of a tenant; disable and reset name them by e-mail', async () => {
    const other = await server.tenant();
    assert.equal((await runCli(['console-user', 'create', '--tenant', other.tenant, '--email', 'elsewhere@example.test', '--role', 'admin'], cliEnv)).code, 0);
    const listed = await cli('list', '--tenant', creds.tenant, '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      rows.map((r) => [r.email, r.role, r.passwordSet, r.disabled]),
      [
        ['ops@example.test', 'viewer', false, false],
        ['second@example.test', 'recruiter', false, false],
      ],
    );
    assert.equal(JSON.parse((await cli('list', '--json')).stdout).length, 3, 'without --tenant: every tenant');

    assert.equal((await cli('disable', '--email', 'Second@example.test')).code, 0);
    const after = JSON.parse((await cli('list', '--tenant', creds.tenant, '--json')).stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      after.map((r) => r.disabled),
      [false, true],
    );
    const reset = await cli('reset', '--email', 'ops@example.test', '--json');
    assert.equal(reset.code, 0, reset.stderr);
    assert.match((JSON.parse(reset.stdout) as { setPasswordUrl: string }).setPasswordUrl, /\/console\/set-password\//);
    const missing = await cli('reset', '--email', 'ghost@example.test');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No console user with the e-mail address ghost@example\.test/);

    // Each change is in the tenant's audit log, by the operator (no user), from the CLI.
    const audit = await server.running.deps.store.db
      .selectFrom('console_audit')
      .select(['action', 'user_id', 'address'])
      .where('tenant_id', '=', creds.tenantId)
      .execute();
    for (const action of ['user.created', 'user.disabled', 'user.reset'])
      assert.ok(
        audit.some((a) => a.action === action && a.user_id === null && a.address === 'cli'),
        `${action}: ${JSON.stringify(audit)}`,
      );
  });
});
