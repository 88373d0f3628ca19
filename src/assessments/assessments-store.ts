import { sql, type Kysely, type Updateable } from 'kysely';
import type { Store } from '../db/database.js';
import { prepared, read, run } from '../db/prepared.js';
import { PREPARE } from '../db/pg-prepared.js';
import type { AssessmentTable, DB } from '../db/schema.js';
import { perStore } from '../db/turn-batcher.js';
import { unnestColumns } from '../db/unnest.js';

export type AssessmentRow = AssessmentTable;

const COLUMNS = [
  'analysis_id',
  'tenant_id',
  'external_id',
  'api_key_id',
  'portal_domain',
  'assessment_type',
  'return_url',
  'webhook_url',
  'webhook_username',
  'webhook_password_enc',
  'status',
  'scores',
  'created_at',
  'started_at',
  'completed_at',
  'expires_at',
  'ordered_via',
  'webhook_style',
  'webhook_username_enc',
] as const satisfies ReadonlyArray<keyof AssessmentRow>;
// An ATS integration's order also writes its order key (migration 0015); the caller API's rows have none.
const ORDER_COLUMNS = [...COLUMNS, 'order_key'] as const satisfies ReadonlyArray<keyof AssessmentRow>;
// Set only by an ATS integration's order; the caller API leaves them out, and they bind null.
type OptionalColumn = 'ordered_via' | 'webhook_style' | 'webhook_username_enc' | 'order_key';
const INTEGER_COLUMNS = new Set<string>(['assessment_type']);

type Written = Pick<AssessmentRow, (typeof ORDER_COLUMNS)[number]>;
/** What creation writes; the rest of the row fills in as the candidate goes. */
export type NewAssessment = Omit<Written, OptionalColumn> & Partial<Pick<Written, OptionalColumn>>;

/** The bound values in `columns`' order, read off the given row: a spread copy is a cost on this hot path (bench/NOTES.md). */
const valuesOf = (row: NewAssessment, columns: ReadonlyArray<keyof Written> = COLUMNS) => columns.map((c) => row[c] ?? null);

/**
 * One statement: insert ... select from the candidate row, so a candidate that does not exist
 * in this tenant inserts nothing. Casts give PostgreSQL the types of the bound values.
 */
function insertSelect(db: Kysely<DB>, columns: ReadonlyArray<keyof Written>, values: unknown[]) {
  return db
    .insertInto('assessments')
    .columns([...columns])
    .expression((eb) =>
      eb
        .selectFrom('candidates')
        .select(columns.map((c, i) => eb.cast(eb.val(values[i]), INTEGER_COLUMNS.has(c) ? 'integer' : 'text').as(c)))
        .where('external_id', '=', values[columns.length] as string)
        .where('tenant_id', '=', values[columns.length + 1] as string),
    );
}

const insertForOwnCandidate = prepared((db, ...values: unknown[]) => insertSelect(db, COLUMNS, values));
// A second order with the same key collides with migration 0015's unique index: it inserts nothing, and waits for none.
const insertOrderForOwnCandidate = prepared((db, ...values: unknown[]) => insertSelect(db, ORDER_COLUMNS, values).onConflict((oc) => oc.doNothing()));

/**
 * PostgreSQL: the assessments created in one turn go in as one statement, one round trip and
 * one commit, joined to their candidates in the same tenant. Rows come in as one array per
 * column; each AnalysisId is new, so the ones returned are the ones created.
 */
async function insertBatch(store: Store, rows: NewAssessment[]): Promise<Array<'created' | 'no-candidate'>> {
  const { names, arrays } = unnestColumns(rows, COLUMNS, INTEGER_COLUMNS);
  // One auto-committed statement on the shared handle, as a read is.
  const inserted = await read(
    store,
    sql<{ analysis_id: string }>`${sql.raw(PREPARE)}
    insert into assessments (${names})
    select ${sql.join(COLUMNS.map((c) => sql.ref(`v.${c}`)))}
    from unnest(${arrays}) as v(${names})
    join candidates c on c.external_id = v.external_id and c.tenant_id = v.tenant_id
    returning analysis_id`,
  );
  const created = new Set(inserted.map((r) => r.analysis_id));
  return rows.map((r) => (created.has(r.analysis_id) ? 'created' : 'no-candidate'));
}

// Two batches in the database at once; the rest gather meanwhile, so a busy server sends fewer, larger ones.
const insertBatched = perStore(insertBatch, { maxInFlight: 2 });

/**
 * Inserts the assessment if its candidate exists in the same tenant. Another tenant's
 * candidate counts as no candidate: tenants never learn of each other's ExternalIds.
 */
export async function insertAssessment(store: Store, given: NewAssessment): Promise<'created' | 'no-candidate'> {
  if (store.dialect === 'postgres') {
    return insertBatched(store, given);
  }
  // On SQLite the writer worker batches statements itself.
  const query = insertForOwnCandidate(store.db, store.dialect, ...valuesOf(given), given.external_id, given.tenant_id);
  const { changes } = await store.execute(query);
  return changes === 1 ? 'created' : 'no-candidate';
}

/**
 * Inserts the assessment as `insertAssessment` does, inside the caller's transaction: for a write
 * that checks and queues more in the same commit (its invitation, src/mail/queue-store.ts).
 */
export async function insertAssessmentIn(trx: Kysely<DB>, dialect: Store['dialect'], given: NewAssessment): Promise<'created' | 'no-candidate'> {
  // An order with its key inserts nothing when the same order is there already: 'no-candidate' then too.
  const query =
    given.order_key === undefined
      ? insertForOwnCandidate(trx, dialect, ...valuesOf(given), given.external_id, given.tenant_id)
      : insertOrderForOwnCandidate(trx, dialect, ...valuesOf(given, ORDER_COLUMNS), given.external_id, given.tenant_id);
  return (await run(trx, query)).changes === 1 ? 'created' : 'no-candidate';
}

const assessmentById = prepared((db, analysisId: string) => db.selectFrom('assessments').selectAll().where('analysis_id', '=', analysisId));

export async function findAssessment(store: Store, analysisId: string): Promise<AssessmentRow | undefined> {
  return (await read(store, assessmentById(store.db, store.dialect, analysisId)))[0];
}

const ownAssessmentById = prepared((db, analysisId: string, tenantId: string) =>
  db.selectFrom('assessments').selectAll().where('analysis_id', '=', analysisId).where('tenant_id', '=', tenantId),
);

/** The tenant's own assessment; another tenant's reads as none, so tenants never learn of each other's ids. */
export async function findOwnAssessment(store: Store, tenantId: string, analysisId: string): Promise<AssessmentRow | undefined> {
  return (await read(store, ownAssessmentById(store.db, store.dialect, analysisId, tenantId)))[0];
}

/** The candidate's assessments, oldest first. */
export async function assessmentsOfCandidate(store: Store, externalId: string): Promise<AssessmentRow[]> {
  return store.db.selectFrom('assessments').selectAll().where('external_id', '=', externalId).orderBy('created_at').execute();
}

const SUMMARY_COLUMNS = [
  'analysis_id',
  'tenant_id',
  'external_id',
  'portal_domain',
  'status',
  'completed_at',
  'norm_group_id',
  'report_nonce',
  'results_release',
] as const satisfies ReadonlyArray<keyof AssessmentRow>;

/**
 * What a read of results or a report checks before its render is served from the render cache:
 * whose it is, its state, and the columns the render depends on, with its candidate's last
 * change. Not the scores: they are read only when the render is made.
 */
export type AssessmentSummary = Pick<AssessmentRow, (typeof SUMMARY_COLUMNS)[number]> & {
  candidate_updated_at: string | null;
  /** The portal's translated-norms setting (null: the portal has no settings), on which the vendor's lists depend. */
  translated_norms: number | null;
};

const summaryById = prepared(
  (db, analysisId: string) =>
    db
      .selectFrom('assessments as a')
      .leftJoin('candidates as c', 'c.external_id', 'a.external_id')
      .leftJoin('portal_settings as p', 'p.api_key_id', 'a.api_key_id')
      .select([...SUMMARY_COLUMNS.map((c) => `a.${c}` as const), 'c.updated_at as candidate_updated_at', 'p.translated_norms'])
      .where('a.analysis_id', '=', analysisId),
  { named: true },
);

export async function findAssessmentSummary(store: Store, analysisId: string): Promise<AssessmentSummary | undefined> {
  return (await read(store, summaryById(store.db, store.dialect, analysisId)))[0];
}

/** How many items of each assessment have an answer: their progress, in one query. None answered: absent. */
export async function answerCounts(store: Store, analysisIds: readonly string[]): Promise<Map<string, number>> {
  if (analysisIds.length === 0) return new Map();
  const rows = await store.db
    .selectFrom('assessment_answers')
    .select((eb) => ['analysis_id', eb.fn.countAll<number>().as('n')])
    .where('analysis_id', 'in', [...analysisIds])
    .groupBy('analysis_id')
    .execute();
  return new Map(rows.map((r) => [r.analysis_id, Number(r.n)]));
}

/** Withdraws an open assessment of the tenant: its link shows that it was withdrawn. Returns when it was (or had been) cancelled. */
export async function markCancelled(
  store: Store,
  tenantId: string,
  analysisId: string,
): Promise<{ outcome: 'cancelled'; cancelledAt: string | null } | { outcome: 'completed' | 'not-found' }> {
  const at = new Date().toISOString();
  return store.write(async (trx) => {
    const row = await trx
      .selectFrom('assessments')
      .select(['status', 'cancelled_at'])
      .where('analysis_id', '=', analysisId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (!row) return { outcome: 'not-found' };
    if (row.status === 'Completed') return { outcome: 'completed' };
    // Cancelling twice, or after expiry, is no error: the link is closed either way.
    if (row.status === 'Cancelled') return { outcome: 'cancelled', cancelledAt: row.cancelled_at };
    await trx.updateTable('assessments').set({ status: 'Cancelled', cancelled_at: at }).where('analysis_id', '=', analysisId).execute();
    return { outcome: 'cancelled', cancelledAt: at };
  });
}

/**
 * Completes an open assessment inside the completing transaction: the status guard makes a racing
 * second finish update nothing (undefined). Returns the webhook URL to queue an attempt for.
 */
export async function markCompleted(
  trx: Kysely<DB>,
  analysisId: string,
  results: Omit<Updateable<AssessmentTable>, 'status'>,
): Promise<{ webhook_url: string | null } | undefined> {
  return trx
    .updateTable('assessments')
    .set({ status: 'Completed', ...results })
    .where('analysis_id', '=', analysisId)
    .where('status', 'in', ['Created', 'Started'])
    .returning(['webhook_url'])
    .executeTakeFirst();
}

/**
 * Assessments per status as callers see it (Expired derived from expires_at, as in
 * domain/lifecycle). A full scan, so it runs as a background read.
 */
export async function countByStatus(store: Store, now = new Date().toISOString()): Promise<Array<{ status: string; count: number }>> {
  const query = store.db
    .selectFrom('assessments')
    .select((eb) => [
      eb
        .case()
        .when(eb.and([eb('status', 'in', ['Created', 'Started']), eb('expires_at', '<=', now)]))
        .then('Expired')
        .else(eb.ref('status'))
        .end()
        .as('status'),
      eb.fn.countAll<number>().as('count'),
    ])
    .groupBy(sql`1`)
    .compile();
  return (await store.backgroundRead(query)).map((r) => ({ status: String(r.status), count: Number(r.count) }));
}
