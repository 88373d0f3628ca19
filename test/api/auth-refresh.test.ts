import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { REFRESH_AFTER } from '../../src/api/auth.js';
import { provisionKey } from '../../src/tenancy/provision.js';
import type { KdfPool } from '../../src/security/kdf-pool.js';
import { revokeKey } from '../../src/tenancy/credentials-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';

// Short enough for a test, long enough that a sleep on a busy machine still lands in the window.
const TTL_MS = 4_000;
const REFRESH_MS = TTL_MS * REFRESH_AFTER;
// On PostgreSQL the caller cache is also emptied every AUTH_CACHE_FLUSH_MS (a floor for a lost
// NOTIFY), and the request after that reads the caller again and may start a check of its own,
// whatever the test arranged: at its 2-second default it fired during a test now and then
// (issue 46: "7 !== 6"). An hour: it cannot fire during this suite. It has tests of its own in
// auth-flush-floor.test.ts.
const NO_FLUSH = { AUTH_CACHE_FLUSH_MS: '3600000' };

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

/**
 * The server's KDF behind a gate the test holds shut, opens, or refuses (the checks held then
 * fail, as when the pool refuses work), with every check it was asked for and when each ended.
 */
function gateKdf(kdf: KdfPool) {
  const real = kdf.verify.bind(kdf);
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  let refuse = () => {};
  const checks: Array<{ doneAt: number | undefined; result: Promise<boolean> }> = [];
  kdf.verify = (...args) => {
    const check: (typeof checks)[number] = { doneAt: undefined, result: gate.then(() => real(...args)) };
    check.result.then(
      () => (check.doneAt = Date.now()),
      () => (check.doneAt = Date.now()),
    );
    checks.push(check);
    return check.result;
  };
  return {
    checks,
    hold() {
      gate = new Promise((resolve, reject) => {
        open = resolve;
        refuse = () => reject(new Error('refused by the test'));
      });
      // A gate refused with no check behind it is not an unhandled rejection.
      gate.catch(() => {});
    },
    open: () => open(),
    refuse() {
      refuse();
      gate = Promise.resolve();
    },
  };
}

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((r) => (timer = setTimeout(() => r('pending'), ms)));
  const outcome = await Promise.race([promise.then(() => 'settled'), late]);
  clearTimeout(timer);
  return outcome === 'pending';
}

/** `promise`'s value, or a failure after `ms`: a request that waits for a held KDF must not hang the run. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  assert.equal(await pendingAfter(promise, ms), false, `${what} within ${ms} ms`);
  return promise;
}

suiteOnEachDatabase('authentication cache refresh', { env: { AUTH_CACHE_TTL_MS: String(TTL_MS), ...NO_FLUSH }, tenant: false }, ({ server }) => {
  let kdf: ReturnType<typeof gateKdf>;
  before(async () => {
    kdf = gateKdf(server.running.deps.kdf);
  });

  // Authenticates and reads nothing stored: a 404 for a candidate nobody made (401 if refused).
  const ask = (api: ReturnType<typeof apiClient>) => api.get('/api/anonymous/candidate/nobody-made-this-one');

  /**
   * A first request keeps the caller; then, with the KDF held, a request in the last quarter of
   * the TTL is answered from the entry and starts a check, which stays held until the test opens
   * or refuses the KDF (the helper opens it if its own checks fail).
   */
  async function askInRefreshWindow(api: ReturnType<typeof apiClient>): Promise<{ keptBy: number; first: number }> {
    const first = kdf.checks.length;
    assert.equal((await ask(api)).status, 404);
    const keptBy = Date.now();
    assert.equal(kdf.checks.length, first + 1, 'the first request checks the password');
    // The caller and the verdict were kept between the check's end and the answer.
    const keptFrom = kdf.checks[first]!.doneAt!;
    kdf.hold();
    try {
      await sleepUntil(keptBy + REFRESH_MS + 100);
      assert.ok(Date.now() < keptFrom + TTL_MS - 300, 'the request below must land in the last quarter of the TTL');
      assert.equal((await within(ask(api), 2_000, 'answered while the KDF is held')).status, 404);
      await eventually(async () => (kdf.checks.length === first + 2 ? true : undefined), 2_000, 'that request to start a check of the password');
      assert.equal(kdf.checks.at(-1)!.doneAt, undefined, 'which is still held');
    } catch (error) {
      kdf.open();
      throw error;
    }
    return { keptBy, first };
  }

  /** With the KDF held, a request after the TTL of what was kept by `keptBy` waits for a check of its own. */
  async function waitsAfterTtl(api: ReturnType<typeof apiClient>, keptBy: number): Promise<void> {
    const before = kdf.checks.length;
    kdf.hold();
    await sleepUntil(keptBy + TTL_MS + 200);
    const late = ask(api);
    try {
      assert.ok(await pendingAfter(late, 500), 'the request waits for the held KDF');
      assert.equal(kdf.checks.length, before + 1, 'it asked for a check of its own');
    } finally {
      kdf.open();
    }
    assert.equal((await within(late, 2_000, 'answered once the check is let through')).status, 404);
  }

  test('a caller in steady use waits for the KDF only on its first request: later checks run behind a request', async () => {
    const api = apiClient(server.url, await server.tenant());
    const { keptBy, first } = await askInRefreshWindow(api);
    kdf.open();
    assert.equal(await within(kdf.checks.at(-1)!.result, 2_000, 'the check ends once let through'), true);
    await sleepUntil(keptBy + TTL_MS + 300);
    assert.equal((await within(ask(api), 2_000, 'answered')).status, 404);
    assert.equal(kdf.checks.length, first + 2, 'past the first TTL, the checked entry serves without a KDF');
  });

  test('an entry is never used past its TTL: a request after it waits for a fresh check', async () => {
    const api = apiClient(server.url, await server.tenant());
    assert.equal((await ask(api)).status, 404);
    await waitsAfterTtl(api, Date.now());
  });

  test('a check that fails renews nothing and is not tried again at once: after the TTL a request waits for a fresh check', async () => {
    const api = apiClient(server.url, await server.tenant());
    const { keptBy, first } = await askInRefreshWindow(api);
    kdf.refuse();
    await assert.rejects(within(kdf.checks.at(-1)!.result, 2_000, 'the refused check ends'));
    // The KDF would now answer, but the next requests are served from the entry without asking it.
    for (let i = 0; i < 3; i++) assert.equal((await within(ask(api), 2_000, 'answered')).status, 404);
    assert.equal(kdf.checks.length, first + 2, 'a failed check is not tried again on the next requests');
    await waitsAfterTtl(api, keptBy);
  });

  test('while a check behind a request is held, later requests until the TTL read the caller no more', async () => {
    const api = apiClient(server.url, await server.tenant());
    const kysely = server.running.deps.store.db;
    const execute = kysely.executeQuery.bind(kysely);
    let callerReads = 0;
    kysely.executeQuery = ((query) => {
      if (('sql' in query ? query.sql : query.compile().sql).includes('from "api_keys" as "k"')) callerReads++;
      return execute(query);
    }) as typeof kysely.executeQuery;
    try {
      const readsAtStart = callerReads;
      const { first } = await askInRefreshWindow(api);
      // Positive control: the hook counts caller reads. The first request read the caller, and
      // so did the check it started in the refresh window, before it waited for the held KDF.
      assert.equal(callerReads - readsAtStart, 2, "the hook counted the first request's read and the held check's");
      const keptFrom = kdf.checks[first]!.doneAt!;
      const readsBefore = callerReads;
      // Until shortly before the TTL: a check that stopped waiting for the held verdict would keep
      // the caller only until that verdict's end, and the requests in its last quarter read again.
      // A request goes every 100 ms without waiting for the last one's answer, so a slow answer on a
      // busy machine cannot leave that quarter unasked; the last is sent 500 ms before the TTL.
      const answers: Array<Promise<{ status: number }>> = [];
      let lastSentAt = 0;
      try {
        for (let at = Date.now(); at < keptFrom + TTL_MS - 500; at = Date.now()) {
          answers.push(within(ask(api), 5_000, 'answered while the KDF is held'));
          lastSentAt = at;
          await new Promise((r) => setTimeout(r, 100));
        }
        for (const answer of await Promise.all(answers)) assert.equal(answer.status, 404);
      } finally {
        kdf.open();
      }
      assert.ok(lastSentAt >= keptFrom + REFRESH_MS, `a request in the TTL's last quarter: the last went ${lastSentAt - keptFrom} ms after the check`);
      assert.equal(callerReads - readsBefore, 0, 'the caller was read again while its check was held');
      assert.equal(await within(kdf.checks.at(-1)!.result, 2_000, 'the held check ends once let through'), true);
    } finally {
      kysely.executeQuery = execute;
    }
  });

  test('a key revoked while its check is held is refused at once, and the check that ends after keeps nothing', async () => {
    const tenant = await server.tenant();
    const key = await provisionKey(server.running.deps.store, tenant.tenantId, 'https://revoked.example.test');
    const api = apiClient(server.url, { ...tenant, apiKey: key.apiKey });
    // The held check read the key before the revocation.
    await askInRefreshWindow(api);
    try {
      assert.equal(await revokeKey(server.running.deps.store, key.apiKeyId), 'revoked');
      assert.equal((await within(ask(api), 2_000, 'answered while the KDF is held')).status, 401);
    } finally {
      kdf.open();
    }
    assert.equal(await within(kdf.checks.at(-1)!.result, 2_000, 'the held check ends once let through'), true);
    assert.equal((await within(ask(api), 2_000, 'answered')).status, 401);
  });
});
