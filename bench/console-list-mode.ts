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
const FIRST = [
  'Anna',
  'Bram',
  'Daan',
  'Emma',
  'Fleur',
  'Ghislaine',
  'Hugo',
  'Iris',
  'Jan',
  'Julia',
  'Kees',
  'Lotte',
  'Mila',
  'Noah',
  'Olivier',
  'Pim',
  'Roos',
  'Sem',
  'Tess',
  'Vera',
];
// Common surnames, about 1% of the candidates each; the rest made of syllables, each rare.
const COMMON = [
  'Bakker',
  'Bos',
  'Dekker',
  'Dijkstra',
  'Hendriks',
  'Jansen',
  'Kok',
  'Meijer',
  'Mulder',
  'Peters',
  'Smit',
  'Visser',
  'Vos',
  'Willems',
  'Brouwer',
];
const SYLLABLES = ['ber', 'dam', 'ker', 'hof', 'lan', 'mer', 'ste', 'vel', 'wou', 'gra', 'hui', 'ter', 'rij', 'ven', 'zan', 'kam', 'pol', 'roe', 'sch', 'tin'];

/**
 * Indexes the console's list wants, not in the migrations yet (the run's second half adds them): the
 * search by the start of a candidate's fields (the last name's also serves the sort by name), the
 * sort by completion, and flagged and instrument filters and counts without reading the table.
 */
export function consoleIndexes(dialect: 'sqlite' | 'postgres'): string[] {
  const low = (c: string) => (dialect === 'postgres' ? `(lower(${c}) COLLATE "C")` : `lower(${c})`);
  return [
    `CREATE INDEX candidates_search_first_name ON candidates (tenant_id, ${low('first_name')})`,
    `CREATE INDEX candidates_search_last_name ON candidates (tenant_id, ${low('last_name')}, ${low('first_name')})`,
    `CREATE INDEX candidates_search_email ON candidates (tenant_id, ${low('email')})`,
    `CREATE INDEX candidates_search_external_id ON candidates (tenant_id, ${low('external_id')})`,
    `CREATE INDEX assessments_console_completed ON assessments (tenant_id, (coalesce(completed_at, '')), analysis_id)`,
    `CREATE INDEX assessments_console_type ON assessments (tenant_id, assessment_type, status, expires_at)`,
    `CREATE INDEX assessments_console_flagged ON assessments (tenant_id, created_at, analysis_id, status, expires_at) WHERE integrity_flags IS NOT NULL AND integrity_flags <> '[]'`,
  ];
}

/**
 * `count` assessments for one tenant and `others` for another, each with its own candidate, written
 * straight into the tables: invited over the last 180 days; 60% completed (8% of those flagged,
 * a quarter awaiting or declining release), 10% started, 5% cancelled, the rest open (those past
 * their 90 days expired); three instruments; 15% of surnames common ones (1% each), the rest rare,
 * so a search by a common surname matches about 1,000 and by an e-mail address one.
 */
async function seed(store: Store, tenants: Array<[string, number]>): Promise<void> {
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
  await sql.raw(store.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE').execute(store.db);
}

type Scenario = [string, () => { filter: ConsoleFilter; page: ConsolePageRequest }];
type Timed = { name: string; rows: number; pageP95: number; countsP95: number; bothP95: number };

/** Each view's first page and its counts through the store, in this process: p95 of each, and of both one after the other. */
async function measure(store: Store, tenantId: string, scenarios: Scenario[], rounds: number): Promise<Timed[]> {
  const round = (x: number) => Math.round(x * 10) / 10;
  const out: Timed[] = [];
  for (const [name, make] of scenarios) {
    const pages: number[] = [];
    const counts: number[] = [];
    let rows = 0;
    // `rounds`, or as many as 20 s allow (at least 5), so a slow view does not hold the run for minutes.
    const until = Date.now() + 20_000;
    for (let i = -1; i < rounds && (i < 5 || Date.now() < until); i++) {
      const { filter, page } = make();
      const a = process.hrtime.bigint();
      const result = await listConsolePage(store, tenantId, filter, page);
      const b = process.hrtime.bigint();
      await countConsoleStatuses(store, tenantId, filter);
      const c = process.hrtime.bigint();
      if (i < 0) continue; // a warm-up round, not counted
      pages.push(Number(b - a) / 1e6);
      counts.push(Number(c - b) / 1e6);
      rows += result.rows.length;
    }
    const both = pages.map((p, i) => p + counts[i]!);
    out.push({ name, rows, pageP95: round(percentile(pages, 95)), countsP95: round(percentile(counts, 95)), bothP95: round(percentile(both, 95)) });
    process.stderr.write(`${name}: ${JSON.stringify(out.at(-1))}\n`);
  }
  return out;
}

/**
 * `npm run bench -- --console-list [--pg] [--candidates N]`: seeds, times each view on the schema as
 * migrated, then again with consoleIndexes added. Prints the summary; no row is appended.
 */
export async function consoleListBench(env: Record<string, string>, creds: Record<string, string>, opts: { count: number; smoke: boolean }): Promise<void> {
  const other = runCliJson(['tenant', 'create', '--name', 'bench-other', '--portal-domain', 'http://127.0.0.1', '--json'], env);
  const tenantId = creds.tenantId!;
  const store = openStore(loadConfig(env).database);
  try {
    await migrateToLatest(store);
    const t0 = Date.now();
    await seed(store, [
      [tenantId, opts.count],
      [other.tenantId!, Math.round(opts.count / 2)],
    ]);
    const seedMs = Date.now() - t0;
    const first: ConsolePageRequest = { sort: 'invited', descending: true, limit: 50 };
    const pick = (n: number) => Math.floor(Math.random() * n);
    const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    const scenarios: Scenario[] = [
      ['first page', () => ({ filter: {}, page: first })],
      ['search: a common surname', () => ({ filter: { search: COMMON[pick(COMMON.length)]! }, page: first })],
      ['search: a rare surname', () => ({ filter: { search: SYLLABLES[pick(20)]! + SYLLABLES[pick(20)]! + SYLLABLES[pick(20)]! }, page: first })],
      ['search: one ExternalId', () => ({ filter: { search: `cl-${tenantId.slice(0, 8)}-${pick(opts.count)}` }, page: first })],
      ['search: one letter (broad)', () => ({ filter: { search: 'b' }, page: first })],
      ['filter: Completed', () => ({ filter: { status: 'Completed' }, page: first })],
      ['filter: flagged', () => ({ filter: { flagged: true }, page: first })],
      ['filter: instrument', () => ({ filter: { assessmentType: 2 }, page: first })],
      ['filter: invited in 30 days', () => ({ filter: { invitedFrom: ago(30) }, page: first })],
      ['search + filter', () => ({ filter: { search: 'jansen', status: 'Completed', flagged: false }, page: first })],
      ['sort: name', () => ({ filter: {}, page: { sort: 'name', descending: false, limit: 50 } })],
      ['sort: completed', () => ({ filter: {}, page: { sort: 'completed', descending: true, limit: 50 } })],
    ];
    const rounds = opts.smoke ? 3 : 60;
    const loadBefore = loadavg()[0]!;
    const migrated = await measure(store, tenantId, scenarios, rounds);
    for (const ddl of consoleIndexes(store.dialect)) await sql.raw(ddl).execute(store.db);
    await sql.raw(store.dialect === 'postgres' ? 'ANALYZE candidates, assessments' : 'ANALYZE').execute(store.db);
    const indexed = await measure(store, tenantId, scenarios, rounds);
    const load = Math.round(((loadBefore + loadavg()[0]!) / 2) * 10) / 10;
    process.stdout.write(JSON.stringify({ assessments: opts.count, dialect: store.dialect, seedMs, load, migrated, indexed }, null, 2) + '\n');
  } finally {
    await store.close();
  }
}
