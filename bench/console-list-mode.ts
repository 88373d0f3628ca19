import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openStore, type Store } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { countConsoleStatuses, listConsolePage, type ConsoleFilter, type ConsolePageRequest } from '../src/assessments/console-list-store.js';
import { percentile } from './stats.js';
import { runCliJson } from './processes.js';
import { seededRandom } from './seeded-random.js';

const DAY = 86_400_000;
const FIRST = ['Anna', 'Bram', 'Daan', 'Emma', 'Fleur', 'Ghislaine', 'Hugo', 'Iris', 'Jan', 'Julia', 'Kees', 'Lotte', 'Mila', 'Noah', 'Olivier', 'Pim', 'Roos', 'Sem', 'Tess', 'Vera'];
// Common surnames, about 1% of the candidates each; the rest made of syllables, each rare.
const COMMON = ['Bakker', 'Bos', 'Dekker', 'Dijkstra', 'Hendriks', 'Jansen', 'Kok', 'Meijer', 'Mulder', 'Peters', 'Smit', 'Visser', 'Vos', 'Willems', 'Brouwer'];
const SYLLABLES = ['ber', 'dam', 'ker', 'hof', 'lan', 'mer', 'ste', 'vel', 'wou', 'gra', 'hui', 'ter', 'rij', 'ven', 'zan', 'kam', 'pol', 'roe', 'sch', 'tin'];

/** The suggested indexes for a search by the start of a candidate's fields (the report's DDL), applied with --console-indexes. */
export function searchIndexes(dialect: 'sqlite' | 'postgres'): string[] {
  return ['first_name', 'last_name', 'email', 'external_id'].map((c) =>
    dialect === 'postgres'
      ? `CREATE INDEX candidates_search_${c} ON candidates (tenant_id, (lower(${c}) COLLATE "C"))`
      : `CREATE INDEX candidates_search_${c} ON candidates (tenant_id, lower(${c}))`,
  );
}

/**
 * `count` assessments for one tenant and `others` for another, each with its own candidate, written
 * straight into the tables: invited over the last 180 days; 60% completed (8% of those flagged,
 * a quarter awaiting or declining release), 10% started, 5% cancelled, the rest open (those past
 * their 90 days expired); three instruments; 15% of surnames common ones (1% each), the rest rare,
 * so a search by a common surname matches about 1,000 and by an e-mail address one.
 */
async function seed(store: Store, tenants: Array<[string, number]>, indexes: boolean): Promise<void> {
  const random = seededRandom(61);
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  for (const [tenantId, count] of tenants) {
    const key = await store.db.selectFrom('api_keys').select('id').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    for (let from = 0; from < count; from += 10_000) {
      await store.db.transaction().execute(async (trx) => {
        const candidates = [];
        const assessments = [];
        for (let i = from; i < Math.min(count, from + 10_000); i++) {
          const ext = `cl-${tenantId.slice(0, 8)}-${i}`;
          const created = now - 180 * DAY + Math.floor((i / count) * 180 * DAY);
          const r = random() * 100;
          const status = r < 60 ? 'Completed' : r < 70 ? 'Started' : r < 75 ? 'Cancelled' : 'Created';
          const first = FIRST[Math.floor(random() * FIRST.length)]!;
          const pickOne = (xs: string[]) => xs[Math.floor(random() * xs.length)]!;
          const made = pickOne(SYLLABLES) + pickOne(SYLLABLES) + pickOne(SYLLABLES);
          const last = random() < 0.15 ? pickOne(COMMON) : made[0]!.toUpperCase() + made.slice(1);
          const done = status === 'Completed';
          const release = done ? (['pending', 'declined', null, null, 'released', 'released', 'released', null] as const)[Math.floor(random() * 8)]! : null;
          candidates.push({
            external_id: ext,
            tenant_id: tenantId,
            email: `${first}.${last}.${i}@example.com`.toLowerCase(),
            first_name: first,
            last_name: last,
            preposition: random() < 0.2 ? 'van' : '',
            gender: 1,
            needs_to_update_data: 0,
            created_at: iso(created),
            updated_at: iso(created),
          });
          const started = status === 'Created' || status === 'Cancelled' ? null : iso(created + 3_600_000);
          assessments.push({
            analysis_id: randomBytes(18).toString('base64url'),
            tenant_id: tenantId,
            external_id: ext,
            api_key_id: key.id,
            portal_domain: 'http://127.0.0.1',
            assessment_type: Math.floor(random() * 3),
            status,
            scores: done ? '[]' : null,
            integrity_flags: done ? (random() < 0.08 ? '["Speeding"]' : '[]') : null,
            results_release: release,
            created_at: iso(created),
            started_at: started,
            last_activity_at: done ? iso(created + 7_200_000) : started,
            completed_at: done ? iso(created + 7_200_000) : null,
            cancelled_at: status === 'Cancelled' ? iso(created + DAY) : null,
            expires_at: iso(created + 90 * DAY),
            candidate_bound: 0,
            candidate_key_gen: 0,
          } as const);
        }
        for (let c = 0; c < candidates.length; c += 500)
          await trx
            .insertInto('candidates')
            .values(candidates.slice(c, c + 500))
            .execute();
        for (let c = 0; c < assessments.length; c += 500)
          await trx
            .insertInto('assessments')
            .values(assessments.slice(c, c + 500))
            .execute();
      });
    }
  }
  if (indexes) for (const ddl of searchIndexes(store.dialect)) await sql.raw(ddl).execute(store.db);
  await sql.raw(store.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE').execute(store.db);
}

export interface ConsoleListSummary {
  assessments: number;
  indexes: boolean;
  seedMs: number;
  load: number;
  /** Per view: p95 of the page query, of the counts, and of both one after the other (a page's database time). */
  scenarios: Array<{ name: string; rows: number; pageP95: number; countsP95: number; bothP95: number }>;
}

/** `npm run bench -- --console-list [--pg] [--candidates N]`: seeds, then times each view's first page and counts through the store. */
export async function consoleListBench(env: Record<string, string>, creds: Record<string, string>, opts: { count: number; smoke: boolean; indexes: boolean }): Promise<void> {
  const other = runCliJson(['tenant', 'create', '--name', 'bench-other', '--portal-domain', 'http://127.0.0.1', '--json'], env);
  const tenantId = creds.tenantId!;
  const store = openStore(loadConfig(env).database);
  try {
    await migrateToLatest(store);
    const t0 = Date.now();
    await seed(store, [
      [tenantId, opts.count],
      [other.tenantId!, Math.round(opts.count / 2)],
    ], opts.indexes);
    const seedMs = Date.now() - t0;
    const load = Math.round(loadavg()[0]! * 10) / 10;
    const rounds = opts.smoke ? 3 : 60;
    const first: ConsolePageRequest = { sort: 'invited', descending: true, limit: 50 };
    const pick = (n: number) => Math.floor(Math.random() * n);
    const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    const scenarios: Array<[string, () => { filter: ConsoleFilter; page: ConsolePageRequest }]> = [
      ['first page', () => ({ filter: {}, page: first })],
      ['search: a common surname', () => ({ filter: { search: COMMON[pick(COMMON.length)]! }, page: first })],
      ['search: a rare surname', () => ({ filter: { search: SYLLABLES[pick(20)]! + SYLLABLES[pick(20)]! + SYLLABLES[pick(20)]! }, page: first })],
      ['search: one letter (broad)', () => ({ filter: { search: 'b' }, page: first })],
      ['search: one ExternalId', () => ({ filter: { search: `cl-${tenantId.slice(0, 8)}-${pick(opts.count)}` }, page: first })],
      ['filter: Completed', () => ({ filter: { status: 'Completed' }, page: first })],
      ['filter: flagged', () => ({ filter: { flagged: true }, page: first })],
      ['filter: instrument', () => ({ filter: { assessmentType: 2 }, page: first })],
      ['filter: invited in 30 days', () => ({ filter: { invitedFrom: ago(30) }, page: first })],
      ['search + filter', () => ({ filter: { search: 'jansen', status: 'Completed', flagged: false }, page: first })],
      ['sort: name', () => ({ filter: {}, page: { sort: 'name', descending: false, limit: 50 } })],
      ['sort: completed', () => ({ filter: {}, page: { sort: 'completed', descending: true, limit: 50 } })],
    ];
    const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
    const round = (x: number) => Math.round(x * 10) / 10;
    const summary: ConsoleListSummary = { assessments: opts.count, indexes: opts.indexes, seedMs, load, scenarios: [] };
    for (const [name, make] of scenarios) {
      const pages: number[] = [];
      const counts: number[] = [];
      const both: number[] = [];
      let rows = 0;
      // 60 rounds, or as many as 20 s allow (at least 10), so a slow view does not hold the run for minutes.
      const until = Date.now() + 20_000;
      for (let i = -1; i < rounds && (i < 10 || Date.now() < until); i++) {
        const { filter, page } = make();
        const a = process.hrtime.bigint();
        const result = await listConsolePage(store, tenantId, filter, page);
        const b = process.hrtime.bigint();
        await countConsoleStatuses(store, tenantId, filter);
        if (i < 0) continue; // a warm-up round, not counted
        pages.push(Number(b - a) / 1e6);
        counts.push(ms(b));
        both.push(ms(a));
        rows += result.rows.length;
      }
      summary.scenarios.push({ name, rows, pageP95: round(percentile(pages, 95)), countsP95: round(percentile(counts, 95)), bothP95: round(percentile(both, 95)) });
      process.stderr.write(`${name}: ${JSON.stringify(summary.scenarios.at(-1))}\n`);
    }
    process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  } finally {
    await store.close();
  }
}
