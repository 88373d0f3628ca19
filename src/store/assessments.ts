import type { Store } from './database.js';
import { prepared, run } from './prepared.js';
import type { AssessmentTable } from './schema.js';

export type AssessmentRow = AssessmentTable;

const COLUMNS = [
  'analysis_id', 'tenant_id', 'external_id', 'api_key_id', 'portal_domain', 'assessment_type', 'return_url', 'webhook_url',
  'webhook_username', 'webhook_password_enc', 'status', 'scores', 'created_at', 'started_at', 'completed_at',
] as const;

const ownCandidateQuery = prepared((db, externalId: string, tenantId: string) =>
  db.selectFrom('candidates').select('external_id').where('external_id', '=', externalId).where('tenant_id', '=', tenantId),
);

const insertQuery = prepared((db, ...values: unknown[]) =>
  db.insertInto('assessments').values(Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]])) as unknown as AssessmentRow),
);

/**
 * Inserts the assessment if its candidate exists in the same tenant. Another tenant's
 * candidate counts as no candidate: tenants never learn of each other's ExternalIds.
 */
export async function insertAssessment(store: Store, row: AssessmentRow): Promise<'created' | 'no-candidate'> {
  return store.write(async (trx) => {
    const { rows } = await run(trx, ownCandidateQuery(trx, store.dialect, row.external_id, row.tenant_id));
    if (rows.length === 0) return 'no-candidate';
    await run(trx, insertQuery(trx, store.dialect, ...COLUMNS.map((c) => row[c])));
    return 'created';
  });
}

export async function findAssessment(store: Store, analysisId: string): Promise<AssessmentRow | undefined> {
  return store.db.selectFrom('assessments').selectAll().where('analysis_id', '=', analysisId).executeTakeFirst();
}
