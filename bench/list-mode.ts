import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { listOwnAssessments, type AssessmentFilter, type Position } from '../src/assessments/list-store.js';
import { apiClient, type Credentials } from '../test/helpers/http.js';
import { percentile } from './stats.js';
import { startAssay, runCliJson } from './processes.js';
import { insertRow } from './results-rows.js';

const DAY = 86_400_000;

/**
 * `count` assessments for the tenant and `others` for another, written straight through the store:
 * created over the last 180 days, 60% completed, 10% started, 5% cancelled, the rest open (those
 * older than their 90 days expired), each with its own candidate.
 */
export async function seed(env: Record<string, string>, tenants: Array<[string, number]>): Promise<number> {
  const started = Date.now();
  const store = openStore(loadConfig(env).database);
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  try {
    await migrateToLatest(store);
    for (const [tenantId, count] of tenants) {
      const key = await store.db.selectFrom('api_keys').select('id').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
      for (let from = 0; from < count; from += 10_000) {
        await store.db.transaction().execute(async (trx) => {
          const candidates = [];
          const assessments = [];
          for (let i = from; i < Math.min(count, from + 10_000); i++) {
            const ext = `list-${tenantId.slice(0, 8)}-${i}`;
            const created = now - 180 * DAY + Math.floor((i / count) * 180 * DAY);
            const r = (i * 7_919) % 100;
            const status = r < 60 ? 'Completed' : r < 70 ? 'Started' : r < 75 ? 'Cancelled' : 'Created';
            const started = status === 'Created' || status === 'Cancelled' ? null : iso(created + 3_600_000);
            candidates.push({
              external_id: ext,
              tenant_id: tenantId,
              email: 'b@example.com',
              first_name: 'Be',
              last_name: 'Nch',
              preposition: '',
              gender: 1,
              needs_to_update_data: 0,
              created_at: iso(created),
              updated_at: iso(created),
            });
            assessments.push({
              analysis_id: randomBytes(18).toString('base64url'),
              tenant_id: tenantId,
              external_id: ext,
              api_key_id: key.id,
              portal_domain: 'http://127.0.0.1',
              assessment_type: 0,
              status,
              scores: status === 'Completed' ? '[]' : null,
              created_at: iso(created),
              started_at: started,
              last_activity_at: status === 'Completed' ? iso(created + 7_200_000) : started,
              completed_at: status === 'Completed' ? iso(created + 7_200_000) : null,
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
    // As autovacuum (PostgreSQL) or the optimizer's own statistics would have them.
    await sql.raw(store.dialect === 'postgres' ? 'VACUUM ANALYZE assessments' : 'ANALYZE').execute(store.db);
  } finally {
    await store.close();
  }
  return Date.now() - started;
}

/** The same walk through the store's finder alone, in this process: the query's own time, apart from HTTP and a busy machine's server. */
async function queryTimes(env: Record<string, string>, tenantId: string, query: () => Record<string, string>, pages: number): Promise<number[]> {
  const store = openStore(loadConfig(env).database);
  const times: number[] = [];
  try {
    const asFilter = (q: Record<string, string>): AssessmentFilter => ({
      status: q.Status as AssessmentFilter['status'],
      externalId: q.ExternalId,
      updatedSince: q.UpdatedSince,
      completedSince: q.CompletedSince,
    });
    let filter = asFilter(query());
    let after: Position | undefined;
    await listOwnAssessments(store, tenantId, filter, { limit: 100 });
    for (let page = 0; page < pages; page++) {
      const t0 = process.hrtime.bigint();
      const { next } = await listOwnAssessments(store, tenantId, filter, { after, limit: 100 });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      after = next ?? undefined;
      if (!next) filter = asFilter(query());
    }
  } finally {
    await store.close();
  }
  return times;
}

export interface ListSummary {
  assessments: number;
  others: number;
  seedMs: number;
  scenarios: Array<{ name: string; pages: number; rows: number; p50: number; p95: number; max: number; queryP95: number }>;
  p95: number;
  /** Pages the server shed (503) and that were asked again. */
  shed: number;
  /** The machine's 1-minute load average when the pages were asked (2 cores). */
  load: number;
}

/** Pages of GET /api/anonymous/assessments, one at a time, each walk following its Cursor, per filter. */
export async function listMode(
  env: Record<string, string>,
  start: () => Promise<{ url: string; stop: () => Promise<void> }>,
  tenants: { mine: Credentials & { tenantId: string }; otherId: string },
  opts: { count: number; others: number; pages: number },
): Promise<ListSummary> {
  const seedMs = await seed(env, [
    [tenants.mine.tenantId, opts.count],
    [tenants.otherId, opts.others],
  ]);
  const assay = await start();
  const load = Math.round(loadavg()[0]! * 10) / 10;
  const api = apiClient(assay.url, tenants.mine);
  const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
  const scenarios: Array<[string, () => Record<string, string>]> = [
    ['no filter', () => ({})],
    ['Status=Completed', () => ({ Status: 'Completed' })],
    ['Status=Cancelled', () => ({ Status: 'Cancelled' })],
    ['Status=Created', () => ({ Status: 'Created' })],
    ['Status=Expired', () => ({ Status: 'Expired' })],
    ['ExternalId', () => ({ ExternalId: `list-${tenants.mine.tenantId.slice(0, 8)}-${Math.floor(Math.random() * opts.count)}` })],
    ['UpdatedSince 1 day', () => ({ UpdatedSince: ago(1) })],
    ['UpdatedSince 200 days', () => ({ UpdatedSince: ago(200) })],
    ['CompletedSince 1 day', () => ({ CompletedSince: ago(1) })],
    ['CompletedSince 30 days', () => ({ CompletedSince: ago(30) })],
    ['CompletedSince tomorrow (none)', () => ({ CompletedSince: ago(-1) })],
    ['Status=Cancelled + UpdatedSince 7 days', () => ({ Status: 'Cancelled', UpdatedSince: ago(7) })],
    ['Status=Started + ExternalId', () => ({ Status: 'Started', ExternalId: `list-${tenants.mine.tenantId.slice(0, 8)}-7` })],
  ];
  let shed = 0;
  /** A page, asked again while a busy machine's server sheds it (503, admission control); its time is the served request's. */
  async function served(path: string) {
    for (const deadline = Date.now() + 30_000; ;) {
      const t0 = process.hrtime.bigint();
      const res = await api.get(path);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (res.status === 200) return { res, ms };
      if (res.status !== 503 || Date.now() > deadline) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 200)}`);
      shed++;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const all: number[] = [];
  const summary: ListSummary['scenarios'] = [];
  try {
    for (const [name, query] of scenarios) {
      const times: number[] = [];
      let rows = 0;
      let cursor: string | null = null;
      let filter = query();
      // Warm-up page, not counted: the first of each filter meets cold caches.
      await served(`/api/anonymous/assessments?${new URLSearchParams({ ...filter, Limit: '100' })}`);
      for (let page = 0; page < opts.pages; page++) {
        const qs = new URLSearchParams({ ...filter, Limit: '100', ...(cursor ? { Cursor: cursor } : {}) });
        const { res, ms } = await served(`/api/anonymous/assessments?${qs}`);
        times.push(ms);
        rows += res.body.Data.Assessments.length;
        cursor = res.body.Data.Cursor;
        if (cursor === null) filter = query(); // a walk ended: the next starts again (a new ExternalId, say)
      }
      all.push(...times);
      const round = (x: number) => Math.round(x * 10) / 10;
      const queryP95 = round(percentile(await queryTimes(env, tenants.mine.tenantId, query, opts.pages), 95));
      summary.push({
        name,
        pages: times.length,
        rows,
        p50: round(percentile(times, 50)),
        p95: round(percentile(times, 95)),
        max: round(Math.max(...times)),
        queryP95,
      });
    }
  } finally {
    await assay.stop();
  }
  return { assessments: opts.count, others: opts.others, seedMs, scenarios: summary, p95: Math.round(percentile(all, 95) * 10) / 10, shed, load };
}

export function listRow(s: ListSummary, db: string, args: string): Array<string | number> {
  const worst = s.scenarios.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  const worstQuery = s.scenarios.reduce((a, b) => (b.queryP95 > a.queryP95 ? b : a));
  return [
    new Date().toISOString().slice(0, 10),
    `${cpus().length} cores, Node ${process.versions.node}, load ${s.load}`,
    `\`npm run bench -- ${args}\``,
    db,
    `${s.assessments.toLocaleString('en')} + ${s.others.toLocaleString('en')}`,
    s.scenarios.reduce((n, x) => n + x.pages, 0),
    s.p95,
    `${worst.p95} (${worst.name})`,
    `${worstQuery.queryP95} (${worstQuery.name})`,
    s.shed,
  ];
}

/** `npm run bench -- --list`: seeds, measures, prints the summary and (unless --smoke) adds its row. */
export async function listBench(
  env: Record<string, string>,
  creds: Record<string, string>,
  opts: { pg: boolean; count: number; smoke: boolean; args: string },
): Promise<void> {
  const other = runCliJson(['tenant', 'create', '--name', 'bench-other', '--portal-domain', 'http://127.0.0.1', '--json'], env);
  const summary = await listMode(
    env,
    () => startAssay({ ...env, RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000' }),
    { mine: { username: creds.username!, password: creds.password!, apiKey: creds.apiKey!, tenantId: creds.tenantId! }, otherId: other.tenantId! },
    { count: opts.count, others: Math.round(opts.count / 2), pages: opts.smoke ? 3 : 60 },
  );
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  if (!opts.smoke) insertRow('<!-- list -->', listRow(summary, opts.pg ? 'PostgreSQL' : 'SQLite', opts.args));
}
