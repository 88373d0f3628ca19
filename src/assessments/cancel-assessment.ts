import type { Deps } from '../app-types.js';
import { markCancelled } from './assessments-store.js';
import type { Requester } from './requester.js';

export type Cancelled = { outcome: 'cancelled'; cancelledAt: string } | { outcome: 'completed' | 'not-found' };

/**
 * Withdraws the requester's tenant's assessment unless it is completed: its link then says so.
 * Cancelling again, or after expiry, is no error. No webhook is sent.
 */
export async function cancelAssessment(deps: Pick<Deps, 'store'>, requester: Pick<Requester, 'tenantId'>, analysisId: string): Promise<Cancelled> {
  const marked = await markCancelled(deps.store, requester.tenantId, analysisId);
  // Rows cancelled before cancelled_at was kept have none: now is as near as can be told.
  return marked.outcome === 'cancelled' ? { outcome: 'cancelled', cancelledAt: marked.cancelledAt ?? new Date().toISOString() } : marked;
}
