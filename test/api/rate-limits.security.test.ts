import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testDatabases } from '../helpers/databases.js';
import { apiClient, candidate, errorCode, request, type Credentials } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Each test speaks from its own loopback addresses, so the per-IP limits of one do not touch another.
for (const db of testDatabases()) {
  describe(`abuse limits [${db}]`, () => {
    let server: TestServer;
    let creds: Credentials;
    before(async () => {
      server = await startServer(db, { AUTH_FAILURES_PER_MINUTE: '5', RATE_LIMIT_PER_KEY_PER_MINUTE: '20', PORTAL_UNKNOWN_TOKEN_PER_MINUTE: '5' });
      creds = await server.tenant();
    });
    after(() => server.stop());

    test('failed authentication is limited per client IP: 429 in the envelope with Retry-After', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await apiClient(server.url, { ...creds, username: `nobody-${i}` }, '127.0.0.2').createCandidate(candidate());
        assert.equal(res.status, 401);
      }
      const limited = await apiClient(server.url, creds, '127.0.0.2').createCandidate(candidate());
      assert.equal(limited.status, 429, 'even good credentials wait out the window from that address');
      assert.equal(errorCode(limited), 'TooManyRequests');
      const retry = Number(limited.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      assert.equal((await apiClient(server.url, creds, '127.0.0.3').createCandidate(candidate())).status, 201, 'other clients are unaffected');
    });

    test('failed authentication is limited per username, across addresses', async () => {
      const victim = await server.tenant();
      for (let i = 0; i < 5; i++) {
        const res = await apiClient(server.url, { ...victim, password: 'guess' }, `127.0.1.${i + 1}`).createCandidate(candidate());
        assert.equal(res.status, 401);
      }
      const res = await apiClient(server.url, victim, '127.0.1.99').createCandidate(candidate());
      assert.equal(res.status, 429);
      assert.equal(errorCode(res), 'TooManyRequests');
    });

    test('bad API keys count as failures too', async () => {
      for (let i = 0; i < 5; i++) {
        assert.equal((await apiClient(server.url, { ...creds, apiKey: `ak_guess${i}` }, '127.0.2.1').createCandidate(candidate())).status, 401);
      }
      assert.equal((await apiClient(server.url, creds, '127.0.2.1').createCandidate(candidate())).status, 429);
    });

    test('an unknown username runs the KDF like a wrong password does', async () => {
      const auth = server.running.deps.authenticator;
      const before = auth.kdfRuns;
      await apiClient(server.url, { ...creds, username: 'no-such-user' }, '127.0.3.1').createCandidate(candidate());
      await apiClient(server.url, { ...creds, password: 'wrong' }, '127.0.3.2').createCandidate(candidate());
      assert.equal(auth.kdfRuns, before + 2);
    });

    test('per-key limits carry RateLimit headers and answer 429 in the envelope', async () => {
      const fresh = await server.tenant();
      const api = apiClient(server.url, fresh, '127.0.4.1');
      const first = await api.createCandidate(candidate());
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('ratelimit-limit'), '20');
      assert.equal(first.headers.get('ratelimit-remaining'), '19');
      assert.ok(Number(first.headers.get('ratelimit-reset')) > 0);
      let last = first;
      for (let i = 0; i < 20; i++) last = await api.createCandidate(candidate());
      assert.equal(last.status, 429);
      assert.equal(errorCode(last), 'TooManyRequests');
      assert.ok(Number(last.headers.get('retry-after')) >= 1);
      const other = await server.tenant();
      assert.equal((await apiClient(server.url, other, '127.0.4.1').createCandidate(candidate())).status, 201, 'another key has its own budget');
    });

    test('guessing portal tokens is limited per client', async () => {
      const guess = (i: number, from: string) => request(`${server.url}/anonymous/analyse/start/guess${i}xxxxxxxxxxxxxxxxx`, { from });
      for (let i = 0; i < 5; i++) assert.equal((await guess(i, '127.0.5.1')).status, 404);
      const limited = await guess(99, '127.0.5.1');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.match(limited.text, /Too many attempts/);
      assert.equal((await guess(99, '127.0.5.2')).status, 404, 'other clients are unaffected');
    });
  });
}
