import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { runCli } from '../helpers/cli.js';
import { apiClient, candidate, errorCode } from '../helpers/http.js';

suiteOnEachDatabase("bin/assay against a running server's database", { tenant: false }, ({ db, server, cliEnv: env }) => {
  async function cli(...args: string[]) {
    const r = await runCli(args, env);
    assert.equal(r.code, 0, `assay ${args.join(' ')}: ${r.stderr}`);
    return r;
  }

  test('tenant create --json prints username, password and apiKey, and they work at once', async () => {
    const r = await cli('tenant', 'create', '--name', `Acme ${db}`, '--portal-domain', 'https://assess.acme.test/', '--json');
    const out = JSON.parse(r.stdout);
    assert.equal(typeof out.username, 'string');
    assert.equal(typeof out.password, 'string');
    assert.match(out.apiKey, /^ak_[A-Za-z0-9_-]{32}$/);
    assert.equal(out.portalDomain, 'https://assess.acme.test');
    const api = apiClient(server.url, out);
    const body = candidate();
    assert.equal((await api.createCandidate(body)).status, 201);
    const res = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0 });
    assert.equal(res.status, 201);
    assert.ok(res.body.Data.AssessmentUrl.startsWith('https://assess.acme.test/anonymous/analyse/start/'));
  });

  test('without --json the secrets are printed once in plain text', async () => {
    const r = await cli('tenant', 'create', '--name', `Plain ${db}`, '--portal-domain', 'https://plain.test');
    assert.match(r.stdout, /username: +plain-/);
    assert.match(r.stdout, /password: +\S{20,}/);
    assert.match(r.stdout, /api key: +ak_/);
  });

  test('keys: create on another portal domain, list shows prefixes only, revoke stops it at once', async () => {
    const t = JSON.parse((await cli('tenant', 'create', '--name', `Keys ${db}`, '--portal-domain', 'https://one.test', '--json')).stdout);
    const k = JSON.parse((await cli('key', 'create', '--tenant', `Keys ${db}`, '--portal-domain', 'https://two.test', '--json')).stdout);
    const viaTwo = apiClient(server.url, { ...t, apiKey: k.apiKey });
    const body = candidate();
    assert.equal((await viaTwo.createCandidate(body)).status, 201);
    const a = await viaTwo.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 1 });
    assert.ok(a.body.Data.AssessmentUrl.startsWith('https://two.test/'));

    const list = await cli('key', 'list', '--tenant', t.tenantId, '--json');
    const keys = JSON.parse(list.stdout);
    assert.equal(keys.length, 2);
    assert.ok(!list.stdout.includes(k.apiKey) && !list.stdout.includes(t.apiKey), 'full keys are never listed');
    assert.ok(keys.some((row: { prefix: string }) => k.apiKey.startsWith(row.prefix)));

    await cli('key', 'revoke', k.apiKeyPrefix);
    const res = await viaTwo.createCandidate(candidate());
    assert.equal(res.status, 401);
    assert.equal(errorCode(res), 'InvalidApiKey');
    assert.equal((await apiClient(server.url, t).createCandidate(candidate())).status, 201, 'the other key still works');
  });

  test('users: create, reset-password and disable act at once on the running server', async () => {
    const t = JSON.parse((await cli('tenant', 'create', '--name', `Users ${db}`, '--portal-domain', 'https://u.test', '--json')).stdout);
    const u = JSON.parse((await cli('user', 'create', '--tenant', t.tenantId, '--username', `second-${db}`, '--json')).stdout);
    const second = apiClient(server.url, { ...t, username: u.username, password: u.password });
    assert.equal((await second.createCandidate(candidate())).status, 201);

    const reset = JSON.parse((await cli('user', 'reset-password', u.username, '--json')).stdout);
    assert.notEqual(reset.password, u.password);
    assert.equal((await second.createCandidate(candidate())).status, 401, 'old password refused');
    const renewed = apiClient(server.url, { ...t, username: u.username, password: reset.password });
    assert.equal((await renewed.createCandidate(candidate())).status, 201);

    await cli('user', 'disable', u.username);
    const res = await renewed.createCandidate(candidate());
    assert.equal(res.status, 401);
    assert.equal(errorCode(res), 'InvalidCredentials');
  });

  test('operator mistakes exit 1 with a message, not a stack trace', async () => {
    const cases = [
      ['tenant', 'create', '--name', 'Bad domain', '--portal-domain', 'not a url'],
      ['tenant', 'create', '--name', 'Bad path', '--portal-domain', 'https://x.test/some/path'],
      ['key', 'create', '--tenant', 'no-such-tenant', '--portal-domain', 'https://x.test'],
      ['key', 'revoke', 'ak_nothing'],
      ['user', 'disable', 'nobody-at-all'],
      ['user', 'create', '--tenant', 'no-such-tenant', '--username', 'x1x'],
      // An id that starts with a dash is read as the id after --, not as an unknown option.
      ['report', 'revoke', '--json', '--', '-NoSuchAssessment0000000'],
    ];
    for (const args of cases) {
      const r = await runCli(args, env);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, /^assay: /, args.join(' '));
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
    await cli('tenant', 'create', '--name', `Dup ${db}`, '--portal-domain', 'https://d.test');
    const dup = await runCli(['tenant', 'create', '--name', `Dup ${db}`, '--portal-domain', 'https://d.test'], env);
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /already exists/);
  });

  test('a bad environment is refused with a clear message', async () => {
    const r = await runCli(['tenant', 'list'], { ...env, PORT: 'eighty' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /PORT must be a whole number/);
    const shutdown = await runCli(['tenant', 'list'], { ...env, SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT_MS: '5000' });
    assert.equal(shutdown.code, 1);
    assert.match(shutdown.stderr, /SHUTDOWN_TIMEOUT_MS \(5000\) must be longer than SHUTDOWN_DRAIN_MS \(5000\)/);
  });
});
