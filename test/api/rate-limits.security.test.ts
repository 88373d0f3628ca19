import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, candidate, errorCode, request } from '../helpers/http.js';

// Each test speaks from its own loopback addresses, so the per-IP limits of one do not touch another.
suiteOnEachDatabase(
  'abuse limits',
  { env: { AUTH_FAILURES_PER_MINUTE: '5', RATE_LIMIT_PER_KEY_PER_MINUTE: '20', PORTAL_UNKNOWN_TOKEN_PER_MINUTE: '5' } },
  ({ server, creds }) => {
    test('requests no password could make valid are limited per client IP: 429 in the envelope with Retry-After', async () => {
      const invalid = [
        { ...creds, apiKey: 'ak_guess' },
        { ...creds, username: 'nobody' },
        { ...creds, apiKey: '' },
        { ...creds, username: 'nobody-else' },
        { ...creds, apiKey: 'ak_guess2' },
      ];
      for (const c of invalid) assert.equal((await apiClient(server.url, c, '127.0.0.2').createCandidate(candidate())).status, 401);
      const limited = await apiClient(server.url, { ...creds, apiKey: 'ak_guess3' }, '127.0.0.2').createCandidate(candidate());
      assert.equal(limited.status, 429);
      assert.equal(errorCode(limited), 'TooManyRequests');
      const retry = Number(limited.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    });

    test("a client's failures never refuse valid credentials from the same address, cached or not", async () => {
      for (let i = 0; i < 7; i++) await apiClient(server.url, { ...creds, apiKey: `ak_guess${i}` }, '127.0.0.4').createCandidate(candidate());
      assert.equal((await apiClient(server.url, { ...creds, apiKey: 'ak_again' }, '127.0.0.4').createCandidate(candidate())).status, 429);
      assert.equal((await apiClient(server.url, creds, '127.0.0.4').createCandidate(candidate())).status, 201, 'a cached caller');
      const fresh = await server.tenant();
      assert.equal((await apiClient(server.url, fresh, '127.0.0.4').createCandidate(candidate())).status, 201, 'a caller never seen before');
    });

    test('wrong passwords are limited per client and username: the right one from there waits', async () => {
      const victim = await server.tenant();
      for (let i = 0; i < 5; i++) {
        assert.equal((await apiClient(server.url, { ...victim, password: `guess-${i}` }, '127.0.1.1').createCandidate(candidate())).status, 401);
      }
      const res = await apiClient(server.url, victim, '127.0.1.1').createCandidate(candidate());
      assert.equal(res.status, 429);
      assert.equal(errorCode(res), 'TooManyRequests');
    });

    test('unknown usernames and users of another tenant are refused without running the KDF', async () => {
      const other = await server.tenant();
      const before = server.running.deps.authenticator.kdfRuns;
      assert.equal((await apiClient(server.url, { ...creds, username: 'no-such-user' }, '127.0.3.1').createCandidate(candidate())).status, 401);
      assert.equal(
        (await apiClient(server.url, { ...creds, username: other.username, password: other.password }, '127.0.3.1').createCandidate(candidate())).status,
        401,
      );
      assert.equal(server.running.deps.authenticator.kdfRuns, before);
      assert.equal((await apiClient(server.url, { ...creds, password: 'wrong' }, '127.0.3.2').createCandidate(candidate())).status, 401);
      assert.equal(server.running.deps.authenticator.kdfRuns, before + 1, 'a wrong password for an own-tenant user does run it');
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
      const retry = Number(last.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      assert.equal(last.headers.get('ratelimit-remaining'), '0');
      const other = await server.tenant();
      assert.equal((await apiClient(server.url, other, '127.0.4.1').createCandidate(candidate())).status, 201, 'another key has its own budget');
    });

    test("a request refused as invalid still counts against its key's budget", async () => {
      const api = apiClient(server.url, await server.tenant(), '127.0.4.2');
      const invalid = await api.createCandidate({ ...candidate(), Email: 'not an address' });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.headers.get('ratelimit-remaining'), '19');
      assert.equal((await api.createCandidate(candidate())).headers.get('ratelimit-remaining'), '18');
    });

    test('guessing portal tokens is limited per client, and only guesses are refused', async () => {
      const guess = (i: number, from: string) => request(`${server.url}/anonymous/analyse/start/guess${i}xxxxxxxxxxxxxxxxx`, { from });
      for (let i = 0; i < 5; i++) assert.equal((await guess(i, '127.0.5.1')).status, 404);
      const limited = await guess(99, '127.0.5.1');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.match(limited.text, /Too many attempts/);
      assert.equal((await guess(99, '127.0.5.2')).status, 404, 'other clients are unaffected');
      const real = await newAssessment(server.url, creds);
      const page = await request(`${server.url}/anonymous/analyse/start/${real.id}`, { from: '127.0.5.1' });
      assert.equal(page.status, 200, 'a valid link from the guessing address still opens');
    });
  },
);
