import type { Store } from '../db/database.js';
import type { AttemptRow } from './outbox-store.js';

/** Every attempt for an assessment, oldest first: its delivery log. */
export async function listAttempts(store: Store, analysisId: string): Promise<AttemptRow[]> {
  return store.db.selectFrom('webhook_attempts').selectAll().where('analysis_id', '=', analysisId).orderBy('created_at').orderBy('id').execute();
}

export type LatestAttempt = { latest: AttemptRow; count: number };

/** The most recent attempt and how many there were: what the status lookup shows. */
export async function latestAttempt(store: Store, analysisId: string): Promise<LatestAttempt | undefined> {
  return (await latestAttempts(store, [analysisId])).get(analysisId);
}

/** `latestAttempt` of each of the assessments, in one query: a page of the list reads them at once. */
export async function latestAttempts(store: Store, analysisIds: readonly string[]): Promise<Map<string, LatestAttempt>> {
  const found = new Map<string, LatestAttempt>();
  if (analysisIds.length === 0) return found;
  const rows = await store.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('analysis_id', 'in', [...analysisIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) found.set(row.analysis_id, { latest: row, count: (found.get(row.analysis_id)?.count ?? 0) + 1 });
  return found;
}

export interface AttemptFilter {
  tenantId?: string;
  status?: AttemptRow['status'];
  since?: string;
}

/** Attempts across assessments, newest first, with their tenant: for the CLI. */
export async function findAttempts(store: Store, filter: AttemptFilter, limit = 1_000) {
  let q = store.db
    .selectFrom('webhook_attempts as w')
    .innerJoin('assessments as a', 'a.analysis_id', 'w.analysis_id')
    .select(['w.id', 'w.analysis_id', 'a.tenant_id', 'w.kind', 'w.status', 'w.created_at', 'w.attempted_at', 'w.duration_ms', 'w.response_status', 'w.error'])
    .orderBy('w.created_at', 'desc')
    .limit(limit);
  if (filter.tenantId) q = q.where('a.tenant_id', '=', filter.tenantId);
  if (filter.status) q = q.where('w.status', '=', filter.status);
  if (filter.since) q = q.where('w.created_at', '>=', filter.since);
  return q.execute();
}
