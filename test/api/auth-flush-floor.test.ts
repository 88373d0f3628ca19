import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { loadConfig } from '../../src/config.js';
import { provisionKey } from '../../src/tenancy/provision.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import type { TestServer } from '../helpers/server.js';

// "The suite above" in a test name below is auth-refresh.test.ts's, which sets the floor to an hour
// (NO_FLUSH) so that it cannot fire during its timed requests.
const NO_FLUSH = { AUTH_CACHE_FLUSH_MS: '3600000' };

// The floor itself: on PostgreSQL the credentials version moves every AUTH_CACHE_FLUSH_MS whatever
// NOTIFY does, so a credential change whose NOTIFY was lost (the LISTEN connection down) still
// acts within that time. Its tests run on their own servers, with the floor set.
// Apart from the 2-second default, and long enough for a request or two between two firings.
const FLUSH_MS = 1_000;
/** AUTH_CACHE_FLUSH_MS unset. */
const DEFAULT_FLUSH_MS = 2_000;
// The default TTL (a minute): in these tests only the floor can end a kept caller.
suiteOnEachDatabase(
  'the credentials-version floor: AUTH_CACHE_FLUSH_MS',
  { on: 'postgres', env: { AUTH_CACHE_FLUSH_MS: String(FLUSH_MS) }, tenant: false },
  ({ server, another }) => {
    const ask = (api: ReturnType<typeof apiClient>) => api.get('/api/anonymous/candidate/nobody-made-this-one');

    /** Resolves when `server`'s credentials version moves from `from`, with Date.now() then. */
    async function moved(s: TestServer, from: number, ms: number): Promise<number> {
      const store = s.running.deps.store;
      return eventually(async () => (store.credentialsVersion() !== from ? Date.now() : undefined), ms, 'the credentials version to move');
    }

    /** Revokes a key behind Assay's back: no NOTIFY and no credentialsChanged(), as when a NOTIFY is lost. */
    async function revokeUnheard(s: TestServer, apiKeyId: string): Promise<void> {
      const changed = await s.running.deps.store.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', apiKeyId)
        .executeTakeFirst();
      assert.equal(changed.numUpdatedRows, 1n);
    }

    test('AUTH_CACHE_FLUSH_MS is validated: 2000 by default, 100 to 3600000', () => {
      const pgUrl = { DATABASE_URL: 'postgres://u:p@db.invalid:5432/assay' };
      const flushOf = (env: Record<string, string>) => {
        const { database } = loadConfig({ ...pgUrl, ...env });
        return database.kind === 'postgres' ? database.credentialsFlushMs : undefined;
      };
      assert.equal(flushOf({}), DEFAULT_FLUSH_MS);
      assert.equal(flushOf({ AUTH_CACHE_FLUSH_MS: '250' }), 250);
      assert.throws(() => flushOf({ AUTH_CACHE_FLUSH_MS: '50' }), /AUTH_CACHE_FLUSH_MS must be between 100 and 3600000/);
      assert.throws(() => flushOf({ AUTH_CACHE_FLUSH_MS: '2s' }), /AUTH_CACHE_FLUSH_MS must be a whole number/);
      // Checked on SQLite too, where it does nothing: a bad value is not found only on the move to PostgreSQL.
      assert.throws(() => loadConfig({ AUTH_CACHE_FLUSH_MS: '0' }), /AUTH_CACHE_FLUSH_MS/);
    });

    test('fires every AUTH_CACHE_FLUSH_MS, not at the 2-second default', async () => {
      const store = server.running.deps.store;
      // In phase with the timer first; then the time between firings.
      await moved(server, store.credentialsVersion(), 3 * FLUSH_MS);
      const gaps: number[] = [];
      for (let i = 0; i < 3; i++) {
        const from = store.credentialsVersion();
        const at = Date.now();
        gaps.push((await moved(server, from, 3 * FLUSH_MS)) - at);
      }
      // A timer never fires early (less the 20 ms of polling); a busy machine may make one late.
      for (const gap of gaps) assert.ok(gap >= FLUSH_MS - 50, `fired after ${gap} ms, before ${FLUSH_MS} ms: ${gaps.join(', ')}`);
      const median = gaps.sort((a, b) => a - b)[1]!;
      assert.ok(median < 1_600, `fired every ${median} ms (median), not every ${FLUSH_MS} ms: ${gaps.join(', ')}`);
    });

    test('a revocation whose NOTIFY was lost is unheard until the floor fires, and refused after it', async () => {
      const store = server.running.deps.store;
      const tenant = await server.tenant();
      // Tries again, with a new key, when the machine was too slow to revoke within one FLUSH_MS.
      for (let attempt = 1; ; attempt++) {
        const key = await provisionKey(store, tenant.tenantId, 'https://lost-notify.example.test');
        const api = apiClient(server.url, { ...tenant, apiKey: key.apiKey });
        // The password's verdict is kept apart from callers and outlives a flush: after this, a
        // request after a firing reads the caller and runs no KDF.
        assert.equal((await ask(api)).status, 404);
        // Right after a firing: a whole FLUSH_MS to keep the caller and revoke its key.
        const firedAt = await moved(server, store.credentialsVersion(), 3 * FLUSH_MS);
        const version = store.credentialsVersion();
        assert.equal((await ask(api)).status, 404, 'the caller is read and kept');
        await revokeUnheard(server, key.apiKeyId);
        const stale = (await ask(api)).status;
        if (store.credentialsVersion() !== version) {
          // The floor fired before that request: it proves nothing either way.
          assert.ok(attempt < 5, 'five tries, each slower than the floor');
          continue;
        }
        // The positive control: nothing but the floor tells this instance of that revocation.
        assert.equal(stale, 404, 'the kept caller still serves: the revocation went unheard');
        const refusedAt = await eventually(async () => ((await ask(api)).status === 401 ? Date.now() : undefined), 3 * FLUSH_MS, 'a 401 for the revoked key');
        assert.notEqual(store.credentialsVersion(), version, 'the floor fired before the key was refused');
        assert.ok(refusedAt - firedAt >= FLUSH_MS - 50, `refused ${refusedAt - firedAt} ms after the previous firing, sooner than the floor`);
        return;
      }
    });

    test('set to an hour (as the suite above has it), the floor does not fire: a revocation stays unheard while a server beside it, at the default, hears its own', async () => {
      // Two servers set up alike, side by side; only the floor differs. The control has the default.
      const [quiet, control] = await Promise.all([another({ ...NO_FLUSH }), another({})]);
      try {
        const [q, c] = await Promise.all(
          [quiet, control].map(async (s) => {
            const store = s.running.deps.store;
            const tenant = await s.tenant();
            const key = await provisionKey(store, tenant.tenantId, 'https://lost-notify.example.test');
            const api = apiClient(s.url, { ...tenant, apiKey: key.apiKey });
            assert.equal((await ask(api)).status, 404, 'the caller is read and kept');
            return { s, store, key, api };
          }),
        );
        for (const { s, key } of [q!, c!]) await revokeUnheard(s, key.apiKeyId);
        const quietVersion = q!.store.credentialsVersion();
        // The tick that makes the absence mean something: the control's floor fires twice after both
        // revocations, so a whole default period (2 s; a timer never fires early) has passed since.
        // A floor at the default would have fired in it, whatever its phase.
        for (let firing = 0; firing < 2; firing++) await moved(control, c!.store.credentialsVersion(), 3 * DEFAULT_FLUSH_MS);
        // The positive control: at the default floor the same unheard revocation is heard.
        assert.equal((await ask(c!.api)).status, 401, 'the default floor made the revocation heard');
        // The absence, over the same time.
        assert.equal(q!.store.credentialsVersion(), quietVersion, 'the version did not move');
        assert.equal((await ask(q!.api)).status, 404, 'the kept caller still serves: the revocation is still unheard');
      } finally {
        await Promise.all([quiet.stop(), control.stop()]);
      }
    });
  },
);
