import type { Deps } from '../app-types.js';
import { answerCounts, type AssessmentRow } from '../assessments/assessments-store.js';
import { assessmentUrl } from '../assessments/rules.js';
import { effectiveStatus } from '../lifecycle/rules.js';
import { normGroupInfo } from '../measurement/norm-group-view.js';
import { pinnedNormGroups, storedResult } from '../measurement/results-store.js';
import { releaseState, reportUrl, withheld } from '../reports/render.js';
import { latestAttempts } from '../webhooks/attempt-log-store.js';
import { webhookSummary } from '../webhooks/webhook-view.js';

/**
 * Assessments as the lookup (GET …/assessment/:AnalysisId) and the tenant's list show them. What
 * lives beside the row (progress, webhook attempts, the pinned norm group) is read for all the
 * rows at once: a page costs the same few queries however many rows it holds.
 */
export async function assessmentViews(deps: Pick<Deps, 'store' | 'instruments' | 'reportLinks'>, rows: readonly AssessmentRow[]) {
  const { store, instruments } = deps;
  // Until the candidate releases them (when the portal asks), no scores leave Assay.
  const results = rows.map((row) => (withheld(row) ? undefined : storedResult(row)));
  const [answered, attempts, groups] = await Promise.all([
    answerCounts(
      store,
      rows.map((r) => r.analysis_id),
    ),
    latestAttempts(
      store,
      rows.filter((r) => r.webhook_url).map((r) => r.analysis_id),
    ),
    pinnedNormGroups(
      store,
      rows.filter((_, i) => results[i]),
    ),
  ]);
  return rows.map((row, i) => {
    const stored = results[i];
    const instrument = instruments.get(row.assessment_type);
    const names = new Map(instrument?.scales.map((s) => [s.id, s.name.en]));
    return {
      AnalysisId: row.analysis_id,
      ExternalId: row.external_id,
      AssessmentType: row.assessment_type,
      AssessmentUrl: assessmentUrl(row.portal_domain, row.analysis_id),
      Status: effectiveStatus(row),
      CreatedAt: row.created_at,
      StartedAt: row.started_at,
      CompletedAt: row.completed_at,
      ExpiresAt: row.expires_at,
      CancelledAt: row.cancelled_at,
      AnsweredItems: answered.get(row.analysis_id) ?? 0,
      TotalItems: instrument?.items.length ?? 0,
      ConsistencyScore: stored?.consistency ?? null,
      IntegrityFlags: stored ? [...stored.flags] : null,
      NormGroup: stored ? normGroupInfo((row.norm_group_id && groups.get(row.norm_group_id)) || null) : null,
      ContentVersion: row.content_version,
      Language: row.language,
      ResultsRelease: releaseState(row),
      ReportUrl: reportUrl(deps, row),
      Webhook: row.webhook_url ? webhookSummary(attempts.get(row.analysis_id)) : null,
      Scores: stored?.scales.map((s) => ({ Scale: s.scale, Name: names.get(s.scale) ?? s.scale, Raw: s.raw, Mean: s.mean, Items: s.items })) ?? null,
    };
  });
}
