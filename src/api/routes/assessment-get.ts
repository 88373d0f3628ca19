import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { effectiveStatus } from '../../lifecycle/rules.js';
import { AssessmentParams, AssessmentStatus } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { countAnswers, findOwnAssessment } from '../../assessments/assessments-store.js';
import { pinnedNormGroup, storedResult } from '../../measurement/results-store.js';
import { releaseState, reportUrl, withheld } from '../../reports/render.js';
import { normGroupInfo } from '../../measurement/norm-group-view.js';
import { latestAttempt } from '../../webhooks/attempt-log-store.js';
import { webhookSummary } from '../../webhooks/webhook-view.js';
import { assessmentUrl } from '../../assessments/rules.js';

/** Beyond the spec: a caller whose webhook got lost can look up the outcome. */
export function assessmentGet(app: App, deps: Deps): void {
  const { store, instruments } = deps;
  app.get(
    '/api/anonymous/assessment/:AnalysisId',
    {
      schema: {
        summary: 'Look up an assessment (extension)',
        description:
          'Not in the original specification. Status, timestamps, progress, the webhook attempt and, once completed (and released by the candidate where the portal asks), the raw scale scores, the consistency score, ' +
          "integrity flags and the norm group pinned at completion. Only the caller's own tenant's assessments are visible; others are 404.",
        tags: ['Extensions'],
        params: AssessmentParams,
        response: { 200: AssessmentStatus, ...apiErrors({ body: false }, 'NotFound') },
      } as Record<string, unknown>,
    },
    async (request, reply) => {
      const { AnalysisId } = request.params as { AnalysisId: string };
      const row = await findOwnAssessment(store, request.caller!.tenantId, AnalysisId);
      if (!row) {
        throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      }
      const attempts = row.webhook_url ? await latestAttempt(store, AnalysisId) : undefined;
      // Until the candidate releases them (when the portal asks), no scores leave Assay.
      const stored = withheld(row) ? undefined : storedResult(row);
      const instrument = instruments.get(row.assessment_type);
      const names = new Map(instrument?.scales.map((s) => [s.id, s.name.en]));
      reply.header('cache-control', 'no-store');
      return {
        StatusCode: 200,
        Message: null,
        Data: {
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
          AnsweredItems: await countAnswers(store, AnalysisId),
          TotalItems: instrument?.items.length ?? 0,
          ConsistencyScore: stored?.consistency ?? null,
          IntegrityFlags: stored ? [...stored.flags] : null,
          NormGroup: stored ? normGroupInfo(await pinnedNormGroup(store, row)) : null,
          ContentVersion: row.content_version,
          Language: row.language,
          ResultsRelease: releaseState(row),
          ReportUrl: reportUrl(deps, row),
          Webhook: row.webhook_url ? webhookSummary(attempts) : null,
          Scores: stored?.scales.map((s) => ({ Scale: s.scale, Name: names.get(s.scale) ?? s.scale, Raw: s.raw, Mean: s.mean, Items: s.items })) ?? null,
        },
      };
    },
  );
}
