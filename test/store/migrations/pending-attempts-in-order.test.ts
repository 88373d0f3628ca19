import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../../src/store/database.js';
import { migrator } from '../../../src/store/migrate.js';
import { oldestPending } from '../../../src/store/outbox.js';
import { testDatabases } from '../../helpers/databases.js';
import { newAssessment } from '../../helpers/fixtures.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const PENDING = 2_000;

for (const db of testDatabases()) {
  describe(`migration 0009: pending webhook attempts read in order [${db}]`, { timeout: 60_000 }, () => {
    let server: TestServer;
    let store: Store;
    before(async () => {
      server = await startServer(db, { WEBHOOK_POLL_INTERVAL_MS: '60000' });
      store = server.running.deps.store;
      const a = await newAssessment(server.url, await server.tenant());
      // A backlog no dispatcher claims: created in reverse order, so the oldest are inserted last.
      const start = Date.parse('2026-01-01T00:00:00Z');
      const rows = Array.from({ length: PENDING }, (_, i) => ({
        id: `backlog-${String(i).padStart(5, '0')}`,
        analysis_id: a.id,
        kind: 'manual' as const,
        requested_by: null,
        status: 'pending' as const,
        created_at: new Date(start + (PENDING - i) * 1000).toISOString(),
        claimed_at: null,
        claimed_by: null,
        attempted_at: null,
        duration_ms: null,
        response_status: null,
        error: null,
      }));
      for (let i = 0; i < rows.length; i += 500) await store.write((trx) => trx.insertInto('webhook_attempts').values(rows.slice(i, i + 500)).execute());
      if (db === 'postgres') await sql`analyze webhook_attempts`.execute(store.db);
    });
    after(() => server.stop());

    /** How the database would run the claim's read, in its own words. */
    async function plan(): Promise<string> {
      const { sql: text, parameters } = oldestPending(store.db, 32).compile();
      const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v)}'`);
      const inlined = db === 'sqlite' ? parameters.reduce<string>((s, v) => s.replace('?', literal(v)), text) : text.replace(/\$(\d+)/g, (_, n) => literal(parameters[Number(n) - 1]));
      const rows = (await sql.raw<Record<string, string>>(`${db === 'sqlite' ? 'explain query plan' : 'explain'} ${inlined}`).execute(store.db)).rows;
      return rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
    }

    test(`the claim reads the oldest of ${PENDING} pending attempts from the index, without sorting them; down sorts again, up again does not`, async () => {
      const oldest = (await oldestPending(store.db, 3).execute()).map((r) => r.id);
      assert.deepEqual(oldest, ['backlog-01999', 'backlog-01998', 'backlog-01997']);
      const sorts = (p: string) => /TEMP B-TREE FOR ORDER BY|Sort/i.test(p);
      const usesIndex = (p: string) => p.includes('webhook_attempts_status_created');
      const now = await plan();
      assert.ok(usesIndex(now) && !sorts(now), now);

      assert.equal((await migrator(store).migrateTo('0008-heads-version')).error, undefined);
      if (db === 'postgres') await sql`analyze webhook_attempts`.execute(store.db);
      const before = await plan();
      assert.ok(sorts(before), `without the index the read sorts: ${before}`);

      assert.equal((await migrator(store).migrateToLatest()).error, undefined);
      if (db === 'postgres') await sql`analyze webhook_attempts`.execute(store.db);
      const again = await plan();
      assert.ok(usesIndex(again) && !sorts(again), again);
      assert.deepEqual((await oldestPending(store.db, 3).execute()).map((r) => r.id), oldest);
    });
  });
}
