import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KdfPool } from '../../src/security/kdf-pool.js';
import { testDatabases } from '../helpers/databases.js';
import { apiClient, candidate } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Short enough for a test, long enough that a sleep on a busy machine still lands in the window.
const TTL_MS = 4_000;
const REFRESH_MS = TTL_MS * 0.75;

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

/** The server's KDF behind a gate the test holds shut or opens, with every check it was asked for. */
function gateKdf(kdf: KdfPool) {
  const real = kdf.verify.bind(kdf);
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  const checks: Array<{ done: boolean; result: Promise<boolean> }> = [];
  kdf.verify = (...args) => {
    const check = { done: false, result: gate.then(() => real(...args)) };
    void check.result.finally(() => (check.done = true)).catch(() => {});
    checks.push(check);
    return check.result;
  };
  return {
    checks,
    hold() {
      gate = new Promise((r) => (open = r));
    },
    open: () => open(),
  };
}

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const timer = new Promise((r) => setTimeout(() => r('pending'), ms));
  return (await Promise.race([promise.then(() => 'settled'), timer])) === 'pending';
}

for (const db of testDatabases()) {
  describe(`authentication cache refresh [${db}]`, () => {
    let server: TestServer;
    let kdf: ReturnType<typeof gateKdf>;
    before(async () => {
      server = await startServer(db, { AUTH_CACHE_TTL_MS: String(TTL_MS) });
      kdf = gateKdf(server.running.deps.kdf);
    });
    after(() => server.stop());

    test('a caller in steady use waits for the KDF only on its first request: later checks run behind a request', async () => {
      const api = apiClient(server.url, await server.tenant());
      const first = kdf.checks.length;
      const sentAt = Date.now();
      assert.equal((await api.createCandidate(candidate())).status, 201);
      assert.equal(kdf.checks.length, first + 1, 'the first request checks the password');
      const keptBy = Date.now();

      kdf.hold();
      await sleepUntil(keptBy + REFRESH_MS + 100);
      assert.ok(Date.now() < sentAt + TTL_MS - 300, 'the request below must land in the last quarter of the TTL');
      assert.equal((await api.createCandidate(candidate())).status, 201, 'answered while the KDF is held');
      assert.equal(kdf.checks.length, first + 2, 'that request started a check of the password');
      assert.equal(kdf.checks.at(-1)!.done, false, 'and was answered before the check finished');

      kdf.open();
      assert.equal(await kdf.checks.at(-1)!.result, true);
      await sleepUntil(sentAt + TTL_MS + 300);
      assert.equal((await api.createCandidate(candidate())).status, 201);
      assert.equal(kdf.checks.length, first + 2, 'past the first TTL, the checked entry serves without a KDF');
    });

    test('an entry is never used past its TTL: a request after it waits for a fresh check', async () => {
      const api = apiClient(server.url, await server.tenant());
      assert.equal((await api.createCandidate(candidate())).status, 201);
      const keptBy = Date.now();
      const before = kdf.checks.length;

      kdf.hold();
      await sleepUntil(keptBy + TTL_MS + 200);
      const late = api.createCandidate(candidate());
      try {
        assert.ok(await pendingAfter(late, 500), 'the request waits for the held KDF');
        assert.equal(kdf.checks.length, before + 1, 'it asked for one check');
      } finally {
        kdf.open();
      }
      assert.equal((await late).status, 201);
    });
  });
}
