import type { Store } from '../db/database.js';

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
 */
export async function decideRelease(store: Store, analysisId: string, decision: keyof typeof RELEASE_STEPS): Promise<void> {
  const { to, from } = RELEASE_STEPS[decision];
  await store.write((trx) =>
    trx
      .updateTable('assessments')
      .set({ results_release: to, results_released_at: to === 'released' ? now() : null })
      .where('analysis_id', '=', analysisId)
      .where('results_release', 'in', [...from])
      .execute(),
  );
}
