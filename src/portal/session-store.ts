import { sql } from 'kysely';
import type { Store } from '../db/database.js';
import { prepared, read } from '../db/prepared.js';
import type { AssessmentRow } from '../assessments/assessments-store.js';
import type { CandidateRow } from '../assessments/candidates-store.js';
import { parsePairs } from '../assessments/answers-store.js';
import { DEFAULT_PORTAL_SETTINGS, type PortalSettings } from '../tenancy/portal-settings-store.js';

export interface Session {
  assessment: SessionAssessment;
  candidate: Pick<CandidateRow, 'external_id' | 'gender' | 'needs_to_update_data' | 'gender_asked'>;
  answers: Map<string, number>;
  portal: PortalSettings;
}

const now = () => new Date().toISOString();

const SETTINGS = Object.keys(DEFAULT_PORTAL_SETTINGS) as Array<keyof PortalSettings>;
/** Each portal setting and the name the session read gives its column. */
const SETTING_COLUMNS = SETTINGS.map((c) => [c, `p_${c}`] as const);

/**
 * The columns of an assessment the portal reads on every page, named: a prepared statement's
 * columns must not follow a migration unseen, and each column costs every read (on PostgreSQL a
 * parser per field and execution). Pages that need more (the feedback page's scores) read the row.
 */
const SESSION_KEYS = [
  'analysis_id',
  'tenant_id',
  'external_id',
  'api_key_id',
  'assessment_type',
  'return_url',
  'status',
  'expires_at',
  'last_activity_at',
  'results_release',
  'candidate_bound',
  'candidate_key_gen',
] as const satisfies ReadonlyArray<keyof AssessmentRow>;
const SESSION_COLUMNS = SESSION_KEYS.map((c) => `a.${c}` as const);
export type SessionAssessment = Pick<AssessmentRow, (typeof SESSION_KEYS)[number]>;

/**
 * The assessment, what the portal needs of its candidate and its portal's settings, and the
 * answers as `item:value` pairs: one statement, one round trip, per request; on PostgreSQL
 * parsed and planned once per connection.
 */
const sessionOf = prepared(
  (db, analysisId: string) =>
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
  const row = (await read(store, sessionOf(store.db, store.dialect, analysisId)))[0] as Record<string, unknown> | undefined;
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

/**
 * Starts the assessment and binds it to the browser that pressed Start. True for that one request
 * only: of two browsers pressing Start at once, one becomes the candidate's.
 */
export async function markStarted(store: Store, analysisId: string): Promise<boolean> {
  const at = now();
  const r = await store.write((trx) =>
    trx
      .updateTable('assessments')
      .set({ status: 'Started', started_at: at, last_activity_at: at, candidate_bound: 1 })
      .where('analysis_id', '=', analysisId)
      .where('status', '=', 'Created')
      .executeTakeFirst(),
  );
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Moves the credential of a started assessment on from `gen`, cutting off every browser given it
 * before; true for the one request that did. It moves the activity clock too, so a page post
 * answered from a session kept before (recent-sessions) finds the row changed and reads it again.
 */
export async function rekey(store: Store, analysisId: string, gen: number): Promise<boolean> {
  const r = await store.write((trx) =>
    trx
      .updateTable('assessments')
      .set({ candidate_key_gen: gen + 1, candidate_bound: 1, last_activity_at: now() })
      .where('analysis_id', '=', analysisId)
      .where('candidate_key_gen', '=', gen)
      .where('status', '=', 'Started')
      .executeTakeFirst(),
  );
  return Number(r.numUpdatedRows) === 1;
}

/** Binds an assessment started before binding existed to the browser that opens it next; true for that one. */
export async function claimUnbound(store: Store, analysisId: string): Promise<boolean> {
  const r = await store.write((trx) =>
    trx.updateTable('assessments').set({ candidate_bound: 1 }).where('analysis_id', '=', analysisId).where('candidate_bound', '=', 0).executeTakeFirst(),
  );
  return Number(r.numUpdatedRows) === 1;
}

export async function updateCandidateDetails(
  store: Store,
  externalId: string,
  d: { email: string; first_name: string; last_name: string; preposition: string },
): Promise<void> {
  await store.write((trx) =>
    trx
      .updateTable('candidates')
      .set({ ...d, needs_to_update_data: 0, updated_at: now() })
      .where('external_id', '=', externalId)
      .execute(),
  );
}

export async function setGender(store: Store, externalId: string, gender: number): Promise<void> {
  await store.write((trx) => trx.updateTable('candidates').set({ gender, gender_asked: 1, updated_at: now() }).where('external_id', '=', externalId).execute());
}
