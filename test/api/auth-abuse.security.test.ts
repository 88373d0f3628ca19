import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { provisionUser } from '../../src/tenancy/provision.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';

// The attacks of the hostile-load review, each from its own 127.0.x.y addresses.
suiteOnEachDatabase('authentication under attack', { tenant: false }, ({ db, server }) => {
  test('200 concurrent wrong passwords get at most the limit of verdicts; the rest wait (429)', async () => {
    const victim = await server.tenant();
    const before = server.running.deps.authenticator.kdfRuns;
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        apiClient(server.url, { ...victim, password: i === 150 ? victim.password : `guess-${i}` }, '127.0.20.1').createCandidate(candidate()),
      ),
    );
    const count = (status: number) => replies.filter((r) => r.status === status).length;
    const verdicts = count(401) + count(201);
    // AUTH_FAILURES_PER_MINUTE is 10: a slot is reserved before each KDF run (one more if the right
    // password was among them: a success gives its slot back).
    assert.ok(verdicts >= 1 && verdicts <= 11, `verdicts: ${verdicts}`);
    assert.equal(count(429), 200 - verdicts, 'every other attempt is refused before the KDF');
    assert.ok(server.running.deps.authenticator.kdfRuns - before <= 11, 'the KDF ran at most once per slot');
    for (const r of replies.filter((x) => x.status === 429)) assert.equal(errorCode(r), 'TooManyRequests');
    // Attempts the KDF threads turned away gave their slots back; what is left of the minute's ten goes now.
    let wrong = count(401);
    for (let i = 0; i < 11; i++) {
      const res = await apiClient(server.url, { ...victim, password: `late-${i}` }, '127.0.20.1').createCandidate(candidate());
      if (res.status === 429) break;
      assert.equal(res.status, 401);
      wrong++;
    }
    assert.ok(wrong <= 10, `${wrong} wrong passwords got a verdict this minute`);
    if (count(201) === 0) {
      assert.equal((await apiClient(server.url, victim, '127.0.20.1').createCandidate(candidate())).status, 429, 'the right password waits too');
    }
  });

  test("another tenant's key with a tenant's username never locks that tenant out", async () => {
    const attacker = await server.tenant();
    const victim = await server.tenant();
    const victimApi = apiClient(server.url, victim, '127.0.21.2');
    assert.equal((await victimApi.createCandidate(candidate())).status, 201, 'the victim is cached before the attack');
    const before = server.running.deps.authenticator.kdfRuns;
    for (let i = 0; i < 15; i++) {
      const res = await apiClient(server.url, { ...attacker, username: victim.username, password: `guess-${i}` }, '127.0.21.1').createCandidate(candidate());
      assert.ok(res.status === 401 || res.status === 429, String(res.status));
    }
    assert.equal(server.running.deps.authenticator.kdfRuns, before, 'cross-tenant attempts run no KDF');
    assert.equal((await victimApi.createCandidate(candidate())).status, 201, 'cached, from its own address');
    const fresh = await provisionUser(server.running.deps.store, victim.tenantId, `second-${db}-${process.pid}`);
    const freshApi = apiClient(server.url, { ...victim, username: fresh.username, password: fresh.password }, '127.0.21.1');
    assert.equal((await freshApi.createCandidate(candidate())).status, 201, "not cached, from the attacker's own address");
    assert.equal((await apiClient(server.url, victim, '127.0.21.3').createCandidate(candidate())).status, 201, 'not cached, from a new address');
  });

  test('failures from a shared address do not lock out the other tenants calling from it', async () => {
    const shared = '127.0.22.1';
    const neighbour = await server.tenant();
    for (const c of [
      { ...neighbour, apiKey: 'ak_wrong' },
      { ...neighbour, username: 'nobody' },
      { ...neighbour, apiKey: '' },
    ]) {
      for (let i = 0; i < 5; i++) await apiClient(server.url, c, shared).createCandidate(candidate());
    }
    assert.equal((await apiClient(server.url, { ...neighbour, apiKey: 'ak_wrong' }, shared).createCandidate(candidate())).status, 429);
    for (let i = 0; i < 3; i++) {
      const tenant = await server.tenant();
      assert.equal((await apiClient(server.url, tenant, shared).createCandidate(candidate())).status, 201, `tenant ${i}, never seen before`);
    }
    assert.equal((await apiClient(server.url, neighbour, shared).createCandidate(candidate())).status, 201);
  });
});

// Caches expire at once, so every request below goes through the password check.
suiteOnEachDatabase('a username under attack from many addresses', { env: { AUTH_CACHE_TTL_MS: '0' } }, ({ server, creds: tenant }) => {
  test('clients that proved the password keep working; new ones wait', async () => {
    const known = apiClient(server.url, tenant, '127.0.23.1');
    assert.equal((await known.createCandidate(candidate())).status, 201);
    for (let i = 0; i < 12; i++) {
      await apiClient(server.url, { ...tenant, password: `guess-${i}` }, `127.0.23.${10 + i}`).createCandidate(candidate());
    }
    const stranger = await apiClient(server.url, tenant, '127.0.23.99').createCandidate(candidate());
    assert.equal(stranger.status, 429, 'the right password from an address never seen waits out the window');
    const runs = server.running.deps.authenticator.kdfRuns;
    assert.equal((await known.createCandidate(candidate())).status, 201, 'the known client is served');
    assert.equal(server.running.deps.authenticator.kdfRuns, runs + 1, 'and its password was checked, not cached');
  });
});

// Limits out of the way: this suite wants a long queue of KDF work.
suiteOnEachDatabase(
  'password checks and durable writes',
  { env: { AUTH_FAILURES_PER_MINUTE: '100000', KDF_PER_CLIENT: '1000', KDF_QUEUE: '1000' }, tenant: false },
  ({ server }) => {
    test("a queue of password checks does not hold up another tenant's durable write", async () => {
      const attacked = await server.tenant();
      const other = await server.tenant();
      const otherApi = apiClient(server.url, other, '127.0.24.2');
      assert.equal((await otherApi.createCandidate(candidate())).status, 201);
      const burst = Promise.all(
        Array.from({ length: 40 }, (_, i) => apiClient(server.url, { ...attacked, password: `guess-${i}` }, '127.0.24.1').createCandidate(candidate())),
      );
      const kdf = server.running.deps.kdf;
      await eventually(async () => (kdf.queued >= 20 ? true : undefined), 20_000, 'a queue of password checks');
      const write = await otherApi.createCandidate(candidate());
      assert.equal(write.status, 201);
      assert.ok(kdf.queued > 0, `the write was answered while ${kdf.queued} password checks still waited`);
      const replies = await burst;
      assert.ok(replies.every((r) => r.status === 401));
    });
  },
);
