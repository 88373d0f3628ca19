import { randomBytes } from 'node:crypto';
import type { Store } from '../db/database.js';

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
