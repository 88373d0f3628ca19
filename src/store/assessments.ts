import type { Store } from './database.js';
import { prepared } from './prepared.js';
import type { AssessmentTable } from './schema.js';

export type AssessmentRow = AssessmentTable;

const COLUMNS = [
  'analysis_id', 'tenant_id', 'external_id', 'api_key_id', 'portal_domain', 'assessment_type', 'return_url', 'webhook_url',
  'webhook_username', 'webhook_password_enc', 'status', 'scores', 'created_at', 'started_at', 'completed_at',
] as const satisfies ReadonlyArray<keyof AssessmentRow>;

/**
 * One statement: insert ... select from the candidate row, so a candidate that does not exist
 * in this tenant inserts nothing. Casts give PostgreSQL the types of the bound values.
 */
const insertForOwnCandidate = prepared((db, ...values: unknown[]) =>
  db
    .insertInto('assessments')
    .columns([...COLUMNS])
    .expression((eb) =>
      eb
        .selectFrom('candidates')
        .select(COLUMNS.map((c, i) => eb.cast(eb.val(values[i]), c === 'assessment_type' ? 'integer' : 'text').as(c)))
        .where('external_id', '=', values[COLUMNS.length] as string)
        .where('tenant_id', '=', values[COLUMNS.length + 1] as string),
    ),
);

/**
 * Inserts the assessment if its candidate exists in the same tenant. Another tenant's
 * candidate counts as no candidate: tenants never learn of each other's ExternalIds.
 */
export async function insertAssessment(store: Store, row: AssessmentRow): Promise<'created' | 'no-candidate'> {
  const query = insertForOwnCandidate(store.db, store.dialect, ...COLUMNS.map((c) => row[c]), row.external_id, row.tenant_id);
  const { changes } = await store.execute(query);
  return changes === 1 ? 'created' : 'no-candidate';
}

export async function findAssessment(store: Store, analysisId: string): Promise<AssessmentRow | undefined> {
  return store.db.selectFrom('assessments').selectAll().where('analysis_id', '=', analysisId).executeTakeFirst();
}
