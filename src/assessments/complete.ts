import { randomBytes } from 'node:crypto';
import type { Store } from '../db/database.js';
import type { CompletedResult, NormTable } from '../measurement/types.js';
import { isOpen } from '../lifecycle/rules.js';
import { findNormGroupIn, normGroupInForceIn } from '../measurement/norms-store.js';
import { queueAttempt } from '../webhooks/outbox-store.js';
import { portalSettingsIn } from '../tenancy/portal-settings-store.js';
import { progressOf, readAnswers, readPageTimes } from './answers-store.js';
import { markCompleted } from './assessments-store.js';

const now = () => new Date().toISOString();

/**
 * `candidatePage`: the portal offers the candidate feedback or asks them to release the results.
 * `attemptId`: the webhook attempt queued with the completion, when the assessment has a webhook.
 */
export type Completion =
  { outcome: 'completed'; attemptId?: string; candidatePage: boolean } | { outcome: 'already-completed' } | { outcome: 'incomplete' } | { outcome: 'closed' };

/**
 * The results, the Completed status, the norm group in force and the webhook outbox row, in one
 * transaction, once the candidate confirmed. `score` is the domain's: it returns undefined while
 * items are unanswered; it gets the pinned group's integrity evidence (LowConsistency threshold, careless indices), where it has any. The status guard makes a racing second finish a no-op, and an assessment
 * that expired or was cancelled meanwhile is not completed. With `claimer` the webhook attempt
 * is queued claimed by that dispatcher (outbox.queueAttempt).
 */
export async function completeAssessment(
  store: Store,
  analysisId: string,
  score: (
    answers: ReadonlyMap<string, number>,
    pageMs: ReadonlyMap<number, number>,
    norm?: Pick<NormTable, 'consistency' | 'careless'>,
  ) => CompletedResult | undefined,
  claimer?: string,
  takenIn?: { contentVersion: string; language: 'nl' | 'en' },
): Promise<Completion> {
  return store.write(async (trx): Promise<Completion> => {
    const progress = await progressOf(trx, analysisId);
    if (!progress || progress.status === 'Completed') return { outcome: 'already-completed' };
    if (!isOpen(progress)) return { outcome: 'closed' };
    const at = now();
    const normGroupId = await normGroupInForceIn(trx, progress.api_key_id, progress.assessment_type);
    // Groups never change once stored: the parsed one is kept per process, not read in every completion.
    const norm = normGroupId ? (await findNormGroupIn(trx, normGroupId, store))?.table : undefined;
    const result = score(await readAnswers(trx, store.dialect, analysisId), await readPageTimes(trx, analysisId), norm);
    if (!result) return { outcome: 'incomplete' };
    const settings = await portalSettingsIn(trx, store.dialect, progress.api_key_id);
    const updated = await markCompleted(trx, analysisId, {
      completed_at: at,
      scores: JSON.stringify(result.scales),
      competence_scores: JSON.stringify(result.competences),
      consistency: result.consistency ?? null,
      integrity_flags: JSON.stringify(result.flags),
      norm_group_id: normGroupId,
      report_nonce: randomBytes(12).toString('base64url'),
      results_release: settings.candidate_release ? 'pending' : null,
      content_version: takenIn?.contentVersion ?? null,
      language: takenIn?.language ?? null,
    });
    if (!updated) return { outcome: 'already-completed' };
    const candidatePage = settings.candidate_feedback === 1 || settings.candidate_release === 1;
    if (!updated.webhook_url) return { outcome: 'completed', candidatePage };
    return {
      outcome: 'completed',
      candidatePage,
      attemptId: await queueAttempt(trx, store.dialect, analysisId, progress.tenant_id, 'automatic', null, claimer),
    };
  });
}
