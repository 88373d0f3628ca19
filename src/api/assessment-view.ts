import type { AssessmentView } from '../assessments/views.js';
import { normGroupInfo } from '../measurement/norm-group-view.js';
import type { Scored } from '../measurement/result.js';
import { webhookSummary } from '../webhooks/webhook-view.js';

/** What the lookup, the list and the access call all say of an assessment, in the caller API's words. */
function common(v: AssessmentView) {
  return {
    AnalysisId: v.analysisId,
    AssessmentType: v.assessmentType,
    Status: v.status,
    CreatedAt: v.createdAt,
    StartedAt: v.startedAt,
    CompletedAt: v.completedAt,
    ExpiresAt: v.expiresAt,
    CancelledAt: v.cancelledAt,
    ContentVersion: v.contentVersion,
    Language: v.language,
    ResultsRelease: v.release,
    Webhook: v.webhookUrl ? webhookSummary(v.webhook) : null,
  };
}

/** An assessment as the lookup (GET …/assessment/:AnalysisId) and the tenant's list show it. */
export function assessmentStatus(v: AssessmentView) {
  const { stored } = v;
  return {
    ...common(v),
    ExternalId: v.externalId,
    AssessmentUrl: v.assessmentUrl,
    AnsweredItems: v.answeredItems,
    TotalItems: v.totalItems,
    ConsistencyScore: stored?.consistency ?? null,
    IntegrityFlags: stored ? [...stored.flags] : null,
    NormGroup: stored ? normGroupInfo(v.normGroup) : null,
    ReportUrl: v.reportUrl,
    Scores: stored?.scales.map((s) => ({ Scale: s.scale, Name: stored.names.get(s.scale) ?? s.scale, Raw: s.raw, Mean: s.mean, Items: s.items })) ?? null,
  };
}

const scored = (s: Scored) => ({
  Code: s.code,
  Name: s.name,
  Raw: s.raw,
  Sten: s.sten ?? null,
  Percentile: s.percentile ?? null,
  StenBand: s.stenBand ? { Low: s.stenBand.low, High: s.stenBand.high } : null,
});

/** An assessment as the access call (GET …/candidate/:ExternalId) shows it: with its answers, page times and result. */
export function assessmentHeld(v: AssessmentView) {
  const d = v.details;
  const result = d?.result;
  return {
    ...common(v),
    ReturnUrl: v.returnUrl,
    WebhookUrl: v.webhookUrl,
    Answers: d?.answers?.map((a) => ({ ItemId: a.itemId, Value: a.value, AnsweredAt: a.answeredAt })) ?? null,
    SecondsPerPage: d?.pageMs?.map(([Page, ms]) => ({ Page, Seconds: Math.round(ms / 100) / 10 })) ?? [],
    Results: result
      ? {
          Scales: result.scales.map(scored),
          Competences: result.competences.map(scored),
          ConsistencyScore: result.consistency ?? null,
          IntegrityFlags: result.flags,
          NormGroup: normGroupInfo(result.normGroup),
        }
      : null,
  };
}
