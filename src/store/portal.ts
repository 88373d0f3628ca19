import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { CompletedResult } from '../domain/results/types.js';
import type { Dialect, Store } from './database.js';
import { prepared, run } from './prepared.js';
import type { AssessmentRow } from './assessments.js';
import type { CandidateRow } from './candidates.js';
import type { DB } from './schema.js';
import { isOpen } from '../domain/lifecycle.js';
import { normGroupInForce } from './norms.js';
import { queueAttempt } from './outbox.js';
import { DEFAULT_PORTAL_SETTINGS, portalSettings, type PortalSettings } from './portal-settings.js';

export interface Session {
  assessment: SessionAssessment;
  candidate: Pick<CandidateRow, 'external_id' | 'gender' | 'needs_to_update_data' | 'gender_asked'>;
  answers: Map<string, number>;
  portal: PortalSettings;
}

const now = () => new Date().toISOString();

/**
 * The answers as one row: `item:value` pairs joined by commas (item ids are letters, digits, _
 * and -). A page's session read is then one string, not up to 312 row objects.
 */
const answersOf = prepared((db, analysisId: string) =>
  db
    .selectFrom('assessment_answers')
    .select(sql<string | null>`string_agg(item_id || ':' || value, ',')`.as('pairs'))
    .where('analysis_id', '=', analysisId),
);

function parsePairs(pairs: string | null | undefined): Map<string, number> {
  const answers = new Map<string, number>();
  if (!pairs) return answers;
  for (let start = 0; start < pairs.length; ) {
    const colon = pairs.indexOf(':', start);
    let end = pairs.indexOf(',', colon);
    if (end === -1) end = pairs.length;
    answers.set(pairs.slice(start, colon), Number(pairs.slice(colon + 1, end)));
    start = end + 1;
  }
  return answers;
}

async function readAnswers(db: Kysely<DB>, dialect: Dialect, analysisId: string): Promise<Map<string, number>> {
  return parsePairs((await run(db, answersOf(db, dialect, analysisId))).rows[0]?.pairs);
}

const SETTINGS = Object.keys(DEFAULT_PORTAL_SETTINGS) as Array<keyof PortalSettings>;
/** Each portal setting and the name the session read gives its column. */
const SETTING_COLUMNS = SETTINGS.map((c) => [c, `p_${c}`] as const);

/**
 * The columns of an assessment the portal reads on every page, named: a prepared statement's
 * columns must not follow a migration unseen, and each column costs every read (on PostgreSQL a
 * parser per field and execution). Pages that need more (the feedback page's scores) read the row.
 */
const SESSION_KEYS = [
  'analysis_id', 'tenant_id', 'external_id', 'api_key_id', 'assessment_type', 'return_url', 'status', 'expires_at', 'last_activity_at', 'results_release',
] as const satisfies ReadonlyArray<keyof AssessmentRow>;
const SESSION_COLUMNS = SESSION_KEYS.map((c) => `a.${c}` as const);
export type SessionAssessment = Pick<AssessmentRow, (typeof SESSION_KEYS)[number]>;

/**
 * The assessment, what the portal needs of its candidate and its portal's settings, and the
 * answers as `item:value` pairs: one statement, one round trip, per request; on PostgreSQL
 * parsed and planned once per connection.
 */
const sessionOf = prepared((db, analysisId: string) =>
  db
    .selectFrom('assessments as a')
    .innerJoin('candidates as c', 'c.external_id', 'a.external_id')
    .leftJoin('portal_settings as p', 'p.api_key_id', 'a.api_key_id')
    .select(SESSION_COLUMNS)
    .select(['c.gender as c_gender', 'c.needs_to_update_data as c_needs_to_update_data', 'c.gender_asked as c_gender_asked', 'p.api_key_id as p_api_key_id'])
    .select((eb) => SETTINGS.map((c) => eb.ref(`p.${c}`).as(`p_${c}`)))
    .select((eb) =>
      eb
        .selectFrom('assessment_answers as x')
        .select(sql<string | null>`string_agg(x.item_id || ':' || x.value, ',')`.as('pairs'))
        .whereRef('x.analysis_id', '=', 'a.analysis_id')
        .as('answer_pairs'),
    )
    .where('a.analysis_id', '=', analysisId),
  { named: true },
);

/** Everything the portal needs to render a step, read fresh on every request. */
export async function loadSession(store: Store, analysisId: string): Promise<Session | undefined> {
  const row = (await run(store.db, sessionOf(store.db, store.dialect, analysisId))).rows[0] as Record<string, unknown> | undefined;
  if (!row) return undefined;
  // The assessment's columns by name; the joined ones carry c_ and p_ prefixes.
  const assessment = {} as Record<string, unknown>;
  for (const k of SESSION_KEYS) assessment[k] = row[k];
  let portal = DEFAULT_PORTAL_SETTINGS;
  if (row.p_api_key_id !== null) {
    const settings = {} as Record<string, unknown>;
    for (const [c, column] of SETTING_COLUMNS) settings[c] = row[column];
    portal = settings as unknown as PortalSettings;
  }
  return {
    assessment: assessment as unknown as SessionAssessment,
    candidate: {
      external_id: row.external_id as string,
      gender: row.c_gender as number,
      needs_to_update_data: row.c_needs_to_update_data as number,
      gender_asked: row.c_gender_asked as number,
    },
    answers: parsePairs(row.answer_pairs as string | null),
    portal,
  };
}

export async function markStarted(store: Store, analysisId: string): Promise<void> {
  const at = now();
  await store.write((trx) =>
    trx
      .updateTable('assessments')
      .set({ status: 'Started', started_at: at, last_activity_at: at })
      .where('analysis_id', '=', analysisId)
      .where('status', '=', 'Created')
      .execute(),
  );
}

export async function updateCandidateDetails(
  store: Store,
  externalId: string,
  d: { email: string; first_name: string; last_name: string; preposition: string },
): Promise<void> {
  await store.write((trx) =>
    trx.updateTable('candidates').set({ ...d, needs_to_update_data: 0, updated_at: now() }).where('external_id', '=', externalId).execute(),
  );
}

export async function setGender(store: Store, externalId: string, gender: number): Promise<void> {
  await store.write((trx) => trx.updateTable('candidates').set({ gender, gender_asked: 1, updated_at: now() }).where('external_id', '=', externalId).execute());
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
      oc.columns(['analysis_id', 'page']).doUpdateSet((eb) => ({ ms: eb('assessment_page_times.ms', '+', eb.ref('excluded.ms')), posts: eb('assessment_page_times.posts', '+', 1) })),
    )
    .execute();
}

async function progressOf(trx: Kysely<DB>, analysisId: string) {
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

/** What a request read of the assessment before it saves a page. */
export type SeenProgress = Pick<AssessmentRow, 'status' | 'expires_at' | 'last_activity_at'>;

/**
 * SQLite: the save's guard, the assessment still reads as the request saw it (status, expiry and
 * the activity clock unchanged), which the caller found open. `is` compares nulls as equal.
 */
const asSeen = (analysisId: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
  sql`a.analysis_id = ${analysisId} and a.status = ${status} and a.expires_at is ${expiresAt} and a.last_activity_at is ${lastActivity}`;

/** SQLite: the answers as one JSON object of item ids and values, written only as seen. */
const answersAsSeen = prepared((_db, answers: string, at: string, id: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
  sql`insert into assessment_answers (analysis_id, item_id, value, answered_at)
    select a.analysis_id, j.key, j.value, ${at} from assessments as a, json_each(${answers}) as j
    where ${asSeen(id, status, expiresAt, lastActivity)}
    on conflict (analysis_id, item_id) do update set value = excluded.value, answered_at = excluded.answered_at`,
);

const pageTimeAsSeen = prepared((_db, page: number, ms: number, id: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
  sql`insert into assessment_page_times (analysis_id, page, ms, posts)
    select a.analysis_id, ${page}, ${ms}, 1 from assessments as a
    where ${asSeen(id, status, expiresAt, lastActivity)}
    on conflict (analysis_id, page) do update set ms = assessment_page_times.ms + excluded.ms, posts = assessment_page_times.posts + 1`,
);

/** Last of the group: it moves the activity clock the guard reads, and its count says whether the page was saved. */
const activityAsSeen = prepared((_db, at: string, id: string, status: string, expiresAt: string | null, lastActivity: string | null) =>
  sql`update assessments as a set last_activity_at = ${at} where ${asSeen(id, status, expiresAt, lastActivity)}`,
);

/** PostgreSQL: the save as one statement of data-modifying CTEs, each value bound once. */
const pgSaveAsSeen = prepared(
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
    sql<{ saved: number }>`with seen as (
      update assessments set last_activity_at = ${at}::text
      where analysis_id = ${analysisId}::text and status = ${status}::text
        and expires_at is not distinct from ${expiresAt}::text and last_activity_at is not distinct from ${lastActivity}::text
      returning analysis_id, last_activity_at as at
    ), answers as (
      insert into assessment_answers (analysis_id, item_id, value, answered_at)
      select seen.analysis_id, v.item_id, v.value, seen.at
      from seen, unnest(${items}::text[], ${values}::integer[]) as v(item_id, value)
      on conflict (analysis_id, item_id) do update set value = excluded.value, answered_at = excluded.answered_at
    ), times as (
      insert into assessment_page_times (analysis_id, page, ms, posts)
      select seen.analysis_id, p.page, p.ms, 1 from seen, (select ${page}::integer as page, ${ms}::integer as ms) as p where p.ms is not null
      on conflict (analysis_id, page) do update set ms = assessment_page_times.ms + excluded.ms, posts = assessment_page_times.posts + 1
    )
    select count(*)::integer as saved from seen`,
  { named: true },
);

/**
 * A page's save applied only while the assessment still reads as `seen`. One round trip and one
 * commit, where the transaction takes six on PostgreSQL; on SQLite no transaction of its own and
 * no query built per post. The answers come as two bound arrays (PostgreSQL) or one JSON object
 * (SQLite).
 */
async function saveAsSeen(store: Store, analysisId: string, page: number, answers: ReadonlyMap<string, number>, seen: SeenProgress): Promise<boolean> {
  const at = now();
  const ms = pageMs(seen.last_activity_at, at);
  if (store.dialect === 'sqlite') {
    const guard = [analysisId, seen.status, seen.expires_at, seen.last_activity_at] as const;
    // The batch may run after exclusive work ends: the row as seen must still be open then.
    const results = await store.executeAll(
      [
        answersAsSeen(store.db, 'sqlite', JSON.stringify(Object.fromEntries(answers)), at, ...guard),
        ...(ms === null ? [] : [pageTimeAsSeen(store.db, 'sqlite', page, ms, ...guard)]),
        activityAsSeen(store.db, 'sqlite', at, ...guard),
      ],
      () => isOpen(seen),
    );
    return results?.at(-1)!.changes === 1;
  }
  const { rows } = await store.execute(
    pgSaveAsSeen(store.db, 'postgres', at, analysisId, seen.status, seen.expires_at, seen.last_activity_at, [...answers.keys()], [...answers.values()], page, ms),
  );
  return rows[0]?.saved === 1;
}

/** Saves one page only while the assessment is open and still reads as `seen`; false, and nothing saved, otherwise. */
export async function saveIfUnchanged(store: Store, analysisId: string, page: number, answers: ReadonlyMap<string, number>, seen: SeenProgress): Promise<boolean> {
  return isOpen(seen) && (await saveAsSeen(store, analysisId, page, answers, seen));
}

/**
 * Saves one page. A closed assessment (completed, expired, cancelled) takes no more answers.
 * Given what the request read (`seen`), the save is one guarded write while the assessment still
 * reads so; otherwise, or if it has changed meanwhile, a transaction reads it again first.
 */
export async function saveAnswers(store: Store, analysisId: string, page: number, answers: ReadonlyMap<string, number>, seen?: SeenProgress): Promise<'saved' | 'closed'> {
  if (seen && (await saveIfUnchanged(store, analysisId, page, answers, seen))) return 'saved';
  return store.write(async (trx) => {
    const progress = await progressOf(trx, analysisId);
    if (!progress || !isOpen(progress)) return 'closed';
    await upsertAnswers(trx, analysisId, answers);
    await recordPageTime(trx, analysisId, page, progress.last_activity_at, now());
    return 'saved';
  });
}

/**
 * `candidatePage`: the portal offers the candidate feedback or asks them to release the results.
 * `attemptId`: the webhook attempt queued with the completion, when the assessment has a webhook.
 */
export type Completion =
  | { outcome: 'completed'; attemptId?: string; candidatePage: boolean }
  | { outcome: 'already-completed' }
  | { outcome: 'incomplete' }
  | { outcome: 'closed' };

/**
 * The results, the Completed status, the norm group in force and the webhook outbox row, in one
 * transaction, once the candidate confirmed. `score` is the domain's: it returns undefined while
 * items are unanswered. The status guard makes a racing second finish a no-op, and an assessment
 * that expired or was cancelled meanwhile is not completed. With `claimer` the webhook attempt
 * is queued claimed by that dispatcher (outbox.queueAttempt).
 */
export async function completeAssessment(
  store: Store,
  analysisId: string,
  score: (answers: ReadonlyMap<string, number>, pageMs: ReadonlyMap<number, number>) => CompletedResult | undefined,
  claimer?: string,
  takenIn?: { contentVersion: string; language: 'nl' | 'en' },
): Promise<Completion> {
  return store.write(async (trx): Promise<Completion> => {
    const progress = await progressOf(trx, analysisId);
    if (!progress || progress.status === 'Completed') return { outcome: 'already-completed' };
    if (!isOpen(progress)) return { outcome: 'closed' };
    const at = now();
    const result = score(await readAnswers(trx, store.dialect, analysisId), await readPageTimes(trx, analysisId));
    if (!result) return { outcome: 'incomplete' };
    const settings = await portalSettings(trx, store.dialect, progress.api_key_id);
    const updated = await trx
      .updateTable('assessments')
      .set({
        status: 'Completed',
        completed_at: at,
        scores: JSON.stringify(result.scales),
        competence_scores: JSON.stringify(result.competences),
        consistency: result.consistency ?? null,
        integrity_flags: JSON.stringify(result.flags),
        norm_group_id: await normGroupInForce(trx, progress.api_key_id, progress.assessment_type),
        report_nonce: randomBytes(12).toString('base64url'),
        results_release: settings.candidate_release ? 'pending' : null,
        content_version: takenIn?.contentVersion ?? null,
        language: takenIn?.language ?? null,
      })
      .where('analysis_id', '=', analysisId)
      .where('status', 'in', ['Created', 'Started'])
      .returning(['webhook_url'])
      .executeTakeFirst();
    if (!updated) return { outcome: 'already-completed' };
    const candidatePage = settings.candidate_feedback === 1 || settings.candidate_release === 1;
    if (!updated.webhook_url) return { outcome: 'completed', candidatePage };
    return { outcome: 'completed', candidatePage, attemptId: await queueAttempt(trx, store.dialect, analysisId, progress.tenant_id, 'automatic', null, claimer) };
  });
}

/** Each decision: the state it leads to, from the states it may be taken in. */
const RELEASE_STEPS = {
  release: { to: 'released', from: ['pending', 'declined'] },
  decline: { to: 'declined', from: ['pending', 'declined'] },
  withdraw: { to: 'declined', from: ['released'] },
} as const;

/**
 * The candidate's answer to "may they see your results?". A release may be withdrawn, which
 * withholds the results again exactly as a decline does; a decline may become a release.
 */
export async function decideRelease(store: Store, analysisId: string, decision: keyof typeof RELEASE_STEPS): Promise<void> {
  const { to, from } = RELEASE_STEPS[decision];
  await store.write((trx) =>
    trx
      .updateTable('assessments')
      .set({ results_release: to, results_released_at: to === 'released' ? now() : null })
      .where('analysis_id', '=', analysisId)
      .where('results_release', 'in', [...from])
      .execute(),
  );
}

/** Revokes every share link of the tenant's assessment's report: a new nonce, so earlier signatures fail. */
export async function revokeReportLinks(store: Store, analysisId: string, tenantId?: string): Promise<boolean> {
  const r = await store.write((trx) => {
    let q = trx
      .updateTable('assessments')
      .set({ report_nonce: randomBytes(12).toString('base64url') })
      .where('analysis_id', '=', analysisId)
      .where('report_nonce', 'is not', null);
    if (tenantId !== undefined) q = q.where('tenant_id', '=', tenantId);
    return q.executeTakeFirst();
  });
  return Number(r.numUpdatedRows) === 1;
}
