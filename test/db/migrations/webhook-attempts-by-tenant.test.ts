import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../../helpers/deadline.js';
import { sql, type Kysely } from 'kysely';
import type { Store } from '../../../src/db/database.js';
import { migrator } from '../../../src/db/migrate.js';
import { oldestPending, pendingTenants, pendingTenantsQuery } from '../../../src/webhooks/outbox-store.js';
import { suiteOnEachDatabase } from '../../helpers/harness.js';
import { newAssessment } from '../../helpers/fixtures.js';

const PENDING = 2_000;
const START = Date.parse('2026-01-01T00:00:00Z');

suiteOnEachDatabase(
  'migration 0009: webhook attempts by tenant',
  { env: { WEBHOOK_POLL_INTERVAL_MS: '60000' }, tenant: false, timeout: 60_000 },
  ({ db, server }) => {
    let store: Store;
    const tenants: Array<{ analysisId: string; tenantId: string }> = [];
    before(async () => {
      store = server.running.deps.store;
      for (let i = 0; i < 3; i++) {
        const a = await newAssessment(server.url, await server.tenant());
        const { tenant_id } = await store.db.selectFrom('assessments').select('tenant_id').where('analysis_id', '=', a.id).executeTakeFirstOrThrow();
        tenants.push({ analysisId: a.id, tenantId: tenant_id });
      }
    });

    /**
     * A backlog no dispatcher claims, in the table as it was before 0009 (no tenant column):
     * most of it the first tenant's, created in reverse order so the oldest are inserted last.
     */
    async function backlogBefore0009(): Promise<void> {
      const rows: string[] = [];
      const at = (k: number) => new Date(START + k * 1000).toISOString();
      for (let i = 0; i < PENDING; i++)
        rows.push(`('backlog-${String(i).padStart(5, '0')}', '${tenants[0]!.analysisId}', 'manual', 'pending', '${at(PENDING - i)}')`);
      rows.push(`('second-tenant', '${tenants[1]!.analysisId}', 'manual', 'pending', '${at(PENDING + 10)}')`);
      rows.push(`('third-tenant', '${tenants[2]!.analysisId}', 'manual', 'delivered', '${at(0)}')`);
      for (let i = 0; i < rows.length; i += 500) {
        const values = rows.slice(i, i + 500).join(', ');
        await store.write((trx) => sql.raw(`insert into webhook_attempts (id, analysis_id, kind, status, created_at) values ${values}`).execute(trx));
      }
      if (db === 'postgres') await sql`analyze webhook_attempts`.execute(store.db);
    }

    /** How the database would run a query, in its own words. */
    async function plan(query: { compile(): { sql: string; parameters: readonly unknown[] } }): Promise<string> {
      const { sql: text, parameters } = query.compile();
      const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v)}'`);
      const inlined =
        db === 'sqlite'
          ? parameters.reduce<string>((s, v) => s.replace('?', literal(v)), text)
          : text.replace(/\$(\d+)/g, (_, n) => literal(parameters[Number(n) - 1]));
      const rows = (await sql.raw<Record<string, string>>(`${db === 'sqlite' ? 'explain query plan' : 'explain'} ${inlined}`).execute(store.db)).rows;
      return rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
    }
    const sorts = (p: string) => /TEMP B-TREE|Sort/i.test(p);
    const usesIndex = (p: string) => p.includes('webhook_attempts_waiting');
    /** The claim's per-tenant read, compiled against the store's own dialect. */
    const claimRead = (d: Kysely<any>) => oldestPending(d, tenants[0]!.tenantId, 32);

    test("up copies each existing attempt's tenant from its assessment; down takes the column away again", async () => {
      assert.equal((await migrator(store).migrateTo('0008-heads-version')).error, undefined);
      await backlogBefore0009();
      assert.equal((await migrator(store).migrateToLatest()).error, undefined);
      const byTenant = await store.db
        .selectFrom('webhook_attempts')
        .select(['tenant_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('tenant_id')
        .execute();
      const counts = new Map(byTenant.map((r) => [r.tenant_id, Number(r.n)]));
      assert.deepEqual(
        counts,
        new Map([
          [tenants[0]!.tenantId, PENDING],
          [tenants[1]!.tenantId, 1],
          [tenants[2]!.tenantId, 1],
        ]),
      );

      assert.equal((await migrator(store).migrateTo('0008-heads-version')).error, undefined);
      const columns =
        db === 'sqlite'
          ? (await sql<{ name: string }>`select name from pragma_table_info('webhook_attempts')`.execute(store.db)).rows.map((r) => r.name)
          : (
              await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'webhook_attempts'`.execute(store.db)
            ).rows.map((r) => r.name);
      assert.ok(!columns.includes('tenant_id') && columns.includes('analysis_id'), columns.join());
      assert.equal((await migrator(store).migrateToLatest()).error, undefined);
      assert.equal(
        Number(
          (
            await store.db
              .selectFrom('webhook_attempts')
              .where('tenant_id', '=', tenants[0]!.tenantId)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        PENDING,
      );
    });

    test(`the walk finds each waiting tenant, its oldest attempt and up to a cap of its count; a tenant's oldest of ${PENDING} come from the index, unsorted`, async () => {
      if (db === 'postgres') await sql`analyze webhook_attempts`.execute(store.db);
      const [big, small] = [tenants[0]!, tenants[1]!];
      const expected = [
        { tenantId: big.tenantId, oldest: new Date(START + 1000).toISOString(), waiting: 32 },
        { tenantId: small.tenantId, oldest: new Date(START + (PENDING + 10) * 1000).toISOString(), waiting: 1 },
      ].sort((a, b) => (a.tenantId < b.tenantId ? -1 : 1));
      assert.deepEqual(await pendingTenants(store, { cap: 32 }), expected, 'the third tenant has nothing pending');
      assert.deepEqual(await pendingTenants(store, { after: expected[0]!.tenantId, cap: 32 }), [expected[1]], 'a walk goes on after a tenant');
      assert.deepEqual(
        await pendingTenants(store, { max: 1, cap: 5 }),
        [{ ...expected[0]!, waiting: Math.min(5, expected[0]!.waiting) }],
        'at most max tenants',
      );

      assert.deepEqual(
        (await claimRead(store.db).execute()).slice(0, 3).map((r) => r.id),
        ['backlog-01999', 'backlog-01998', 'backlog-01997'],
      );
      const read = await plan(claimRead(store.db));
      assert.ok(usesIndex(read) && !sorts(read), read);
      // The walk's own statement: every step a seek in the same index, never a scan of the table.
      const walk = await plan({ compile: () => pendingTenantsQuery({ after: 'a', cap: 32 }).compile(store.db) });
      assert.ok(usesIndex(walk), walk);
      assert.ok(!/SCAN webhook_attempts\b(?! USING)|Seq Scan on webhook_attempts/.test(walk), walk);
    });
  },
);
