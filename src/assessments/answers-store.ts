import { sql, type Kysely } from 'kysely';
import type { Dialect, Store } from '../db/database.js';
import { prepared, run } from '../db/prepared.js';
import type { DB } from '../db/schema.js';
import { isOpen } from '../lifecycle/rules.js';
import type { AssessmentRow } from './assessments-store.js';

const now = () => new Date().toISOString();

/**
 * The answers as one row: `item:value` pairs joined by commas (item ids are letters, digits, _
 * and -). A page's session read is then one string, not up to 312 row objects.
 */
export const answersOf = prepared((db, analysisId: string) =>
  db
    .selectFrom('assessment_answers')
    .select(sql<string | null>`string_agg(item_id || ':' || value, ',')`.as('pairs'))
    .where('analysis_id', '=', analysisId),
);

export function parsePairs(pairs: string | null | undefined): Map<string, number> {
  const answers = new Map<string, number>();
  if (!pairs) return answers;
  for (let start = 0; start < pairs.length;) {
    const colon = pairs.indexOf(':', start);
    let end = pairs.indexOf(',', colon);
    if (end === -1) end = pairs.length;
    answers.set(pairs.slice(start, colon), Number(pairs.slice(colon + 1, end)));
    start = end + 1;
  }
  return answers;
}

export async function readAnswers(db: Kysely<DB>, dialect: Dialect, analysisId: string): Promise<Map<string, number>> {
  return parsePairs((await run(db, answersOf(db, dialect, analysisId))).rows[0]?.pairs);
}

async function upsertAnswers(trx: Kysely<DB>, analysisId: string, answers: ReadonlyMap<string, number>): Promise<void> {
  if (answers.size === 0) return;
  const at = now();
  await trx
    .insertInto('assessment_answers')
    .values([...answers].map(([item_id, value]) => ({ analysis_id: analysisId, item_id, value, answered_at: at })))
    .onConflict((oc) =>
      oc.columns(['analysis_id', 'item_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), answered_at: eb.ref('excluded.answered_at') })),
    )
    .execute();
}

/** The time spent on a page: from the candidate's last post (or start) to this one; none before the first. */
function pageMs(lastActivity: string | null, at: string): number | null {
  return lastActivity ? Math.max(0, Date.parse(at) - Date.parse(lastActivity)) : null;
}

/** Adds the time since the candidate's last post (or start) to `page`, and restarts that clock. */
async function recordPageTime(trx: Kysely<DB>, analysisId: string, page: number, lastActivity: string | null, at: string): Promise<void> {
  await trx.updateTable('assessments').set({ last_activity_at: at }).where('analysis_id', '=', analysisId).execute();
  const ms = pageMs(lastActivity, at);
  if (ms === null) return;
  await trx
    .insertInto('assessment_page_times')
    .values({ analysis_id: analysisId, page, ms, posts: 1 })
    .onConflict((oc) =>
      oc
        .columns(['analysis_id', 'page'])
        .doUpdateSet((eb) => ({ ms: eb('assessment_page_times.ms', '+', eb.ref('excluded.ms')), posts: eb('assessment_page_times.posts', '+', 1) })),
    )
    .execute();
}

export async function progressOf(trx: Kysely<DB>, analysisId: string) {
  return trx
    .selectFrom('assessments')
    .select(['status', 'expires_at', 'last_activity_at', 'api_key_id', 'assessment_type', 'tenant_id'])
    .where('analysis_id', '=', analysisId)
    .executeTakeFirst();
}

/** Milliseconds spent per questionnaire page (1-based). */
export async function readPageTimes(db: Kysely<DB>, analysisId: string): Promise<Map<number, number>> {
  const rows = await db.selectFrom('assessment_page_times').select(['page', 'ms']).where('analysis_id', '=', analysisId).execute();
  return new Map(rows.map((r) => [r.page, r.ms]));
}

/** The answers of each of the assessments, by item, with when each was given: one query for them all. */
export async function answersOfAll(store: Store, analysisIds: readonly string[]) {
  const found = new Map<string, Array<{ item_id: string; value: number; answered_at: string }>>();
  if (analysisIds.length === 0) return found;
  const rows = await store.db
    .selectFrom('assessment_answers')
    .select(['analysis_id', 'item_id', 'value', 'answered_at'])
    .where('analysis_id', 'in', [...analysisIds])
    .orderBy('analysis_id')
    .orderBy('item_id')
    .execute();
  for (const { analysis_id, ...answer } of rows) (found.get(analysis_id) ?? found.set(analysis_id, []).get(analysis_id)!).push(answer);
  return found;
}

/** Milliseconds per page (1-based) of each of the assessments: one query for them all. */
export async function pageTimesOfAll(store: Store, analysisIds: readonly string[]): Promise<Map<string, Map<number, number>>> {
  const found = new Map<string, Map<number, number>>();
  if (analysisIds.length === 0) return found;
  const rows = await store.db
    .selectFrom('assessment_page_times')
    .select(['analysis_id', 'page', 'ms'])
    .where('analysis_id', 'in', [...analysisIds])
    .orderBy('page')
    .execute();
  for (const r of rows) (found.get(r.analysis_id) ?? found.set(r.analysis_id, new Map()).get(r.analysis_id)!).set(r.page, r.ms);
  return found;
}

/** What a request read of the assessment before it saves a page. */
export type SeenProgress = Pick<AssessmentRow, 'status' | 'expires_at' | 'last_activity_at'>;

/**
 * SQLite: the save's guard, the assessment still reads as the request saw it (status, expiry and
 * the activity clock unchanged), which the caller found open. `is` compares nulls as equal.
 */
const unchangedSince = (analysisId: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
  sql`a.analysis_id = ${analysisId} and a.status = ${status} and a.expires_at is ${expiresAt} and a.last_activity_at is ${lastActivity}`;

/** SQLite: the answers as one JSON object of item ids and values, written only while unchanged. */
const answersIfUnchanged = prepared(
  (_db, answers: string, at: string, id: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
    sql`insert into assessment_answers (analysis_id, item_id, value, answered_at)
    select a.analysis_id, j.key, j.value, ${at} from assessments as a, json_each(${answers}) as j
    where ${unchangedSince(id, status, expiresAt, lastActivity)}
    on conflict (analysis_id, item_id) do update set value = excluded.value, answered_at = excluded.answered_at`,
);

const pageTimeIfUnchanged = prepared(
  (_db, page: number, ms: number, id: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
    sql`insert into assessment_page_times (analysis_id, page, ms, posts)
    select a.analysis_id, ${page}, ${ms}, 1 from assessments as a
    where ${unchangedSince(id, status, expiresAt, lastActivity)}
    on conflict (analysis_id, page) do update set ms = assessment_page_times.ms + excluded.ms, posts = assessment_page_times.posts + 1`,
);

/** Last of the group: it moves the activity clock the guard reads, and its count says whether the page was saved. */
const activityIfUnchanged = prepared(
  (_db, at: string, id: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
    sql`update assessments as a set last_activity_at = ${at} where ${unchangedSince(id, status, expiresAt, lastActivity)}`,
);

/** PostgreSQL: the save as one statement of data-modifying CTEs, each value bound once. */
const pgSaveIfUnchanged = prepared(
  (
    _db,
    at: string,
    analysisId: string,
    status: string,
    expiresAt: string | null,
    lastActivity: string | null,
    items: string[],
    values: number[],
    page: number,
    ms: number | null,
  ) =>
    sql<{ saved: number }>`with unchanged as (
      update assessments set last_activity_at = ${at}::text
      where analysis_id = ${analysisId}::text and status = ${status}::text
        and expires_at is not distinct from ${expiresAt}::text and last_activity_at is not distinct from ${lastActivity}::text
      returning analysis_id, last_activity_at as at
    ), answers as (
      insert into assessment_answers (analysis_id, item_id, value, answered_at)
      select unchanged.analysis_id, v.item_id, v.value, unchanged.at
      from unchanged, unnest(${items}::text[], ${values}::integer[]) as v(item_id, value)
      on conflict (analysis_id, item_id) do update set value = excluded.value, answered_at = excluded.answered_at
    ), times as (
      insert into assessment_page_times (analysis_id, page, ms, posts)
      select unchanged.analysis_id, p.page, p.ms, 1 from unchanged, (select ${page}::integer as page, ${ms}::integer as ms) as p where p.ms is not null
      on conflict (analysis_id, page) do update set ms = assessment_page_times.ms + excluded.ms, posts = assessment_page_times.posts + 1
    )
    select count(*)::integer as saved from unchanged`,
  { named: true },
);

/**
 * A page's save applied only while the assessment still reads as `seen`. One round trip and one
 * commit, where the transaction takes six on PostgreSQL; on SQLite no transaction of its own and
 * no query built per post. The answers come as two bound arrays (PostgreSQL) or one JSON object
 * (SQLite).
 */
async function saveWhereUnchanged(store: Store, analysisId: string, page: number, answers: ReadonlyMap<string, number>, seen: SeenProgress): Promise<boolean> {
  const at = now();
  const ms = pageMs(seen.last_activity_at, at);
  if (store.dialect === 'sqlite') {
    const guard = [analysisId, seen.status, seen.expires_at, seen.last_activity_at] as const;
    // The batch may run after exclusive work ends: the row as seen must still be open then.
    const results = await store.executeAll(
      [
        answersIfUnchanged(store.db, 'sqlite', JSON.stringify(Object.fromEntries(answers)), at, ...guard),
        ...(ms === null ? [] : [pageTimeIfUnchanged(store.db, 'sqlite', page, ms, ...guard)]),
        activityIfUnchanged(store.db, 'sqlite', at, ...guard),
      ],
      () => isOpen(seen),
    );
    return results?.at(-1)!.changes === 1;
  }
  const { rows } = await store.execute(
    pgSaveIfUnchanged(
      store.db,
      'postgres',
      at,
      analysisId,
      seen.status,
      seen.expires_at,
      seen.last_activity_at,
      [...answers.keys()],
      [...answers.values()],
      page,
      ms,
    ),
  );
  return rows[0]?.saved === 1;
}

/** Saves one page only while the assessment is open and still reads as `seen`; false, and nothing saved, otherwise. */
export async function saveIfUnchanged(
  store: Store,
  analysisId: string,
  page: number,
  answers: ReadonlyMap<string, number>,
  seen: SeenProgress,
): Promise<boolean> {
  return isOpen(seen) && (await saveWhereUnchanged(store, analysisId, page, answers, seen));
}

/**
 * Saves one page. A closed assessment (completed, expired, cancelled) takes no more answers.
 * Given what the request read (`seen`), the save is one guarded write while the assessment still
 * reads so; otherwise, or if it has changed meanwhile, a transaction reads it again first.
 */
export async function saveAnswers(
  store: Store,
  analysisId: string,
  page: number,
  answers: ReadonlyMap<string, number>,
  seen?: SeenProgress,
): Promise<'saved' | 'closed'> {
  if (seen && (await saveIfUnchanged(store, analysisId, page, answers, seen))) return 'saved';
  return store.write(async (trx) => {
    const progress = await progressOf(trx, analysisId);
    if (!progress || !isOpen(progress)) return 'closed';
    await upsertAnswers(trx, analysisId, answers);
    await recordPageTime(trx, analysisId, page, progress.last_activity_at, now());
    return 'saved';
  });
}
