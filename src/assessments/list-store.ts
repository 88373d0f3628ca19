import { sql, type Expression, type SqlBool } from 'kysely';
import type { Store } from '../db/database.js';
import type { LifecycleStatus } from '../domain/status.js';
import type { AssessmentRow } from './assessments-store.js';

/** What a tenant's list of assessments may be narrowed to; timestamps are ISO-8601 UTC. */
export interface AssessmentFilter {
  status?: LifecycleStatus;
  externalId?: string;
  /** Rows whose changed_at (migration 0021) is at or after it. */
  updatedSince?: string;
  completedSince?: string;
}

/** The column a list walks in, then analysis_id: each has its index (migration 0021). */
export type ListOrder = 'created_at' | 'changed_at' | 'completed_at' | 'expires_at';

/** Where a page ended: the row's value in the list's order, and its AnalysisId. */
export interface Position {
  key: string;
  id: string;
}

/**
 * The order a filter's list is walked in. The keys of created, completed and expired rows never
 * change, and new rows join at the end: a walk sees every row once. A row changed during an
 * UpdatedSince walk moves to its end and may be seen again, with its newer state; none is skipped.
 */
export function listOrder(filter: AssessmentFilter): ListOrder {
  if (filter.completedSince !== undefined) return 'completed_at';
  if (filter.updatedSince !== undefined) return 'changed_at';
  if (filter.status === 'Expired') return 'expires_at';
  return 'created_at';
}

const OPEN = ['Created', 'Started'] as const;

/** The stored rows with this status as callers see it: Expired follows from expires_at (lifecycle/rules.ts). */
function statusIs(status: LifecycleStatus, now: string): Expression<SqlBool> {
  if (status === 'Expired') return sql<SqlBool>`status in (${sql.join(OPEN)}) and expires_at <= ${now}`;
  if (status === 'Completed' || status === 'Cancelled') return sql<SqlBool>`status = ${status}`;
  return sql<SqlBool>`status = ${status} and (expires_at is null or expires_at > ${now})`;
}

/**
 * One page of the tenant's own assessments in `listOrder(filter)`, after `after` (a Position this
 * function returned for the same filter), and where the next page starts (null: this is the last).
 * Another tenant's rows are never read, whatever position is given. One query a page.
 */
export async function listOwnAssessments(
  store: Store,
  tenantId: string,
  filter: AssessmentFilter,
  page: { after?: Position | undefined; limit: number },
  now = new Date().toISOString(),
): Promise<{ rows: AssessmentRow[]; next: Position | null }> {
  const order = listOrder(filter);
  const key = sql.ref(order);
  let query = store.db.selectFrom('assessments').selectAll().where('tenant_id', '=', tenantId);
  if (filter.status !== undefined) query = query.where(statusIs(filter.status, now));
  if (filter.externalId !== undefined) query = query.where('external_id', '=', filter.externalId);
  // The order's own bound (CompletedSince, UpdatedSince) and the position are one range on its
  // index, from whichever is later: given apart, SQLite ranged from the bound and stepped over every
  // row before the position (bench/NOTES.md). An id is never empty, so (bound, '') keeps the bound's rows.
  const bound = order === 'completed_at' ? filter.completedSince : order === 'changed_at' ? filter.updatedSince : undefined;
  const from = bound !== undefined && (!page.after || page.after.key < bound) ? { key: bound, id: '' } : page.after;
  if (filter.completedSince !== undefined && order !== 'completed_at') query = query.where('completed_at', '>=', filter.completedSince);
  if (filter.updatedSince !== undefined && order !== 'changed_at') query = query.where(sql<SqlBool>`changed_at >= ${filter.updatedSince}`);
  if (from) query = query.where(sql<SqlBool>`(${key}, analysis_id) > (${from.key}, ${from.id})`);
  const rows = await query
    .orderBy(key as never)
    .orderBy('analysis_id')
    .limit(page.limit + 1)
    .execute();
  if (rows.length <= page.limit) return { rows, next: null };
  rows.length = page.limit;
  const last = rows[page.limit - 1]! as AssessmentRow & Record<ListOrder, string>;
  return { rows, next: { key: last[order], id: last.analysis_id } };
}
