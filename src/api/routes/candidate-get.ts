import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { effectiveStatus, erasureDue } from '../../lifecycle/rules.js';
import type { Scored } from '../../measurement/result.js';
import { answersWithheld, releaseState, resultOf } from '../../reports/render.js';
import { CandidateData, CandidateParams } from '../../schemas/candidate-data.js';
import { apiErrors } from '../../schemas/errors.js';
import { findOwnCandidate } from '../../assessments/candidates-store.js';
import { assessmentsOfCandidate } from '../../assessments/assessments-store.js';
import { retentionDays } from '../../tenancy/credentials-store.js';
import { latestAttempt } from '../../webhooks/attempt-log-store.js';
import { webhookSummary } from '../../webhooks/webhook-view.js';
import { listAnswers, readPageTimes } from '../../assessments/answers-store.js';
import { normGroupInfo } from '../../measurement/norm-group-view.js';

const scored = (s: Scored) => ({
  Code: s.code,
  Name: s.name,
  Raw: s.raw,
  Sten: s.sten ?? null,
  Percentile: s.percentile ?? null,
  StenBand: s.stenBand ? { Low: s.stenBand.low, High: s.stenBand.high } : null,
});

/** A data subject's access request in one call: everything Assay holds about the candidate. */
export function candidateGet(app: App, deps: Deps): void {
  const { store } = deps;
  app.get(
    '/api/anonymous/candidate/:ExternalId',
    {
      schema: {
        summary: 'Everything held about a candidate (extension)',
        description:
          "Not in the original specification. For a data subject's access request: the candidate's fields, every assessment with its status, answers, " +
          'time per page, results and webhook outcome (never the webhook credentials), and when retention will erase it all. Answers and results stay ' +
          "out while the candidate has not released them (a portal setting), and until the candidate finishes (time per page too). Tenant-scoped: another tenant's candidate is 404.",
        tags: ['Candidates'],
        params: CandidateParams,
        response: { 200: CandidateData, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    async (request) => {
      const { ExternalId } = request.params;
      const tenantId = request.caller!.tenantId;
      const candidate = await findOwnCandidate(store, tenantId, ExternalId);
      if (!candidate) throw new DomainError('NotFound', 'No candidate found with this ExternalId', { field: 'ExternalId' });
      const rows = await assessmentsOfCandidate(store, ExternalId);
      const days = await retentionDays(store, tenantId, deps.config.lifecycle.retentionDays);
      const due = erasureDue(candidate.created_at, rows, days);
      const assessments = [];
      for (const row of rows) {
        const held = answersWithheld(row);
        const answers = held
          ? null
          : (await listAnswers(store.db, row.analysis_id)).map((a) => ({ ItemId: a.item_id, Value: a.value, AnsweredAt: a.answered_at }));
        const result = held ? undefined : await resultOf(deps, row, 'en');
        const attempts = row.webhook_url ? await latestAttempt(store, row.analysis_id) : undefined;
        assessments.push({
          AnalysisId: row.analysis_id,
          AssessmentType: row.assessment_type,
          Status: effectiveStatus(row),
          CreatedAt: row.created_at,
          StartedAt: row.started_at,
          CompletedAt: row.completed_at,
          ExpiresAt: row.expires_at,
          CancelledAt: row.cancelled_at,
          ReturnUrl: row.return_url,
          WebhookUrl: row.webhook_url,
          ContentVersion: row.content_version,
          Language: row.language,
          ResultsRelease: releaseState(row),
          Answers: answers,
          // How long each page took tells about the answers too: none until the candidate finishes.
          SecondsPerPage: held ? [] : [...(await readPageTimes(store.db, row.analysis_id))].map(([Page, ms]) => ({ Page, Seconds: Math.round(ms / 100) / 10 })),
          Results: result
            ? {
                Scales: result.scales.map(scored),
                Competences: result.competences.map(scored),
                ConsistencyScore: result.consistency ?? null,
                IntegrityFlags: result.flags,
                NormGroup: normGroupInfo(result.normGroup),
              }
            : null,
          Webhook: row.webhook_url ? webhookSummary(attempts) : null,
        });
      }
      return {
        StatusCode: 200,
        Message: null,
        Data: {
          Candidate: {
            ExternalId: candidate.external_id,
            Email: candidate.email,
            FirstName: candidate.first_name,
            Preposition: candidate.preposition,
            LastName: candidate.last_name,
            Gender: candidate.gender,
            NeedsToUpdateData: candidate.needs_to_update_data === 1,
            CreatedAt: candidate.created_at,
            UpdatedAt: candidate.updated_at,
          },
          Assessments: assessments,
          Retention: { Days: days, ErasedAfter: due === null ? null : new Date(due).toISOString() },
        },
      };
    },
  );
}
