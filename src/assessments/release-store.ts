import type { Store } from '../db/database.js';
import { queueAttempt } from '../webhooks/outbox-store.js';

const now = () => new Date().toISOString();

/** Each decision: the state it leads to, from the states it may be taken in. */
const RELEASE_STEPS = {
  release: { to: 'released', from: ['pending', 'declined'] },
  decline: { to: 'declined', from: ['pending', 'declined'] },
  withdraw: { to: 'declined', from: ['released'] },
} as const;

/**
 * The candidate's answer to "may they see your results?". A release may be withdrawn, which
 * withholds the results again exactly as a decline does; a decline may become a release.
 * An ATS partner called back by a bare PATCH (Greenhouse) read "withheld" at completion and asks
 * no more by itself, so a release queues that PATCH again, in the same transaction, and the
 * partner reads the status anew. Returns whether that PATCH was queued (the caller wakes the
 * dispatcher); a release already in force changes nothing and queues none.
 */
export async function decideRelease(store: Store, analysisId: string, decision: keyof typeof RELEASE_STEPS): Promise<boolean> {
  const { to, from } = RELEASE_STEPS[decision];
  return store.write(async (trx) => {
    const changed = await trx
      .updateTable('assessments')
      .set({ results_release: to, results_released_at: to === 'released' ? now() : null })
      .where('analysis_id', '=', analysisId)
      .where('results_release', 'in', [...from])
      .returning(['tenant_id', 'webhook_style', 'webhook_url'])
      .executeTakeFirst();
    if (to !== 'released' || changed?.webhook_style !== 'patch' || !changed.webhook_url) return false;
    await queueAttempt(trx, store.dialect, analysisId, changed.tenant_id, 'release', null);
    return true;
  });
}
