import type { Store } from './database.js';
import type { AssessmentTable } from './schema.js';

export type AssessmentRow = AssessmentTable;

/**
 * Inserts the assessment if its candidate exists in the same tenant. Another tenant's
 * candidate counts as no candidate: tenants never learn of each other's ExternalIds.
 */
export async function insertAssessment(store: Store, row: AssessmentRow): Promise<'created' | 'no-candidate'> {
  return store.write(async (trx) => {
    const candidate = await trx
      .selectFrom('candidates')
      .select('external_id')
      .where('external_id', '=', row.external_id)
      .where('tenant_id', '=', row.tenant_id)
      .executeTakeFirst();
    if (!candidate) return 'no-candidate';
    await trx.insertInto('assessments').values(row).execute();
    return 'created';
  });
}

export async function findAssessment(store: Store, analysisId: string): Promise<AssessmentRow | undefined> {
  return store.db.selectFrom('assessments').selectAll().where('analysis_id', '=', analysisId).executeTakeFirst();
}
