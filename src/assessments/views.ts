import type { Deps } from '../app-types.js';
import { effectiveStatus, erasureDue, type LifecycleStatus } from '../lifecycle/rules.js';
import type { Language } from '../measurement/instruments/types.js';
import { buildResult, type Result, type StoredResult } from '../measurement/result.js';
import { pinnedNormGroups, storedResult } from '../measurement/results-store.js';
import type { NormGroup } from '../measurement/types.js';
import { answersWithheld, releaseState, reportUrl, withheld } from '../reports/render.js';
import { retentionDays } from '../tenancy/credentials-store.js';
import { latestAttempts, type LatestAttempt } from '../webhooks/attempt-log-store.js';
import { answersOfAll, pageTimesOfAll } from './answers-store.js';
import { answerCounts, assessmentsOfCandidate, findOwnAssessment, type AssessmentRow } from './assessments-store.js';
import { findOwnCandidate, type CandidateRow } from './candidates-store.js';
import type { Requester } from './requester.js';
import { assessmentUrl } from './rules.js';

export type ViewDeps = Pick<Deps, 'store' | 'instruments' | 'competences' | 'reportLinks'>;

/** What a candidate's access request adds to an assessment's view. Kept back (null) until the candidate finishes, and while they withhold their results. */
export interface AssessmentDetails {
  answers: Array<{ itemId: string; value: number; answeredAt: string }> | null;
  /** Milliseconds per page (1-based), in page order. */
  pageMs: Array<[page: number, ms: number]> | null;
  /** The result in English, once completed. */
  result: Result | undefined;
}

/** An assessment as Assay tells its tenant about it, whatever the door; each door maps it to its wire. */
export interface AssessmentView {
  analysisId: string;
  externalId: string;
  assessmentType: number;
  assessmentUrl: string;
  status: LifecycleStatus;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  expiresAt: string | null;
  cancelledAt: string | null;
  returnUrl: string | null;
  webhookUrl: string | null;
  contentVersion: AssessmentRow['content_version'];
  language: AssessmentRow['language'];
  release: ReturnType<typeof releaseState>;
  answeredItems: number;
  totalItems: number;
  /** The scores completion stored, each scale with its English name; undefined until completed, and while withheld. */
  stored: (StoredResult & { names: ReadonlyMap<string, string> }) | undefined;
  /** The norm group pinned at completion. */
  normGroup: NormGroup | null;
  reportUrl: string | null;
  /** The latest webhook attempt and how many there were; undefined before any (and without a webhook). */
  webhook: LatestAttempt | undefined;
  details?: AssessmentDetails;
}

/**
 * The views of the rows. What lives beside a row (progress, webhook attempts, the pinned norm
 * group and, with `details`, answers and page times) is read for all the rows at once: a fixed
 * number of queries however many rows there are.
 */
export async function assessmentViews(deps: ViewDeps, rows: readonly AssessmentRow[], options: { details?: boolean } = {}): Promise<AssessmentView[]> {
  const { store, instruments } = deps;
  const ids = rows.map((r) => r.analysis_id);
  // Until the candidate releases them (when the portal asks), no scores leave Assay.
  const results = rows.map((row) => (withheld(row) ? undefined : storedResult(row)));
  const [answered, attempts, groups, answers, pageTimes] = await Promise.all([
    answerCounts(store, ids),
    latestAttempts(
      store,
      rows.filter((r) => r.webhook_url).map((r) => r.analysis_id),
    ),
    pinnedNormGroups(
      store,
      rows.filter((_, i) => results[i]),
    ),
    options.details ? answersOfAll(store, ids) : undefined,
    options.details ? pageTimesOfAll(store, ids) : undefined,
  ]);
  return rows.map((row, i): AssessmentView => {
    const stored = results[i];
    const instrument = instruments.get(row.assessment_type);
    const normGroup = (row.norm_group_id && groups.get(row.norm_group_id)) || null;
    const view: AssessmentView = {
      analysisId: row.analysis_id,
      externalId: row.external_id,
      assessmentType: row.assessment_type,
      assessmentUrl: assessmentUrl(row.portal_domain, row.analysis_id),
      status: effectiveStatus(row),
      createdAt: row.created_at,
      startedAt: row.started_at,
      completedAt: row.completed_at,
      expiresAt: row.expires_at,
      cancelledAt: row.cancelled_at,
      returnUrl: row.return_url,
      webhookUrl: row.webhook_url,
      contentVersion: row.content_version,
      language: row.language,
      release: releaseState(row),
      answeredItems: answered.get(row.analysis_id) ?? 0,
      totalItems: instrument?.items.length ?? 0,
      stored: stored && { ...stored, names: new Map(instrument?.scales.map((s) => [s.id, s.name.en])) },
      normGroup,
      reportUrl: reportUrl(deps, row),
      webhook: attempts.get(row.analysis_id),
    };
    if (answers && pageTimes) {
      // How long each page took tells about the answers too: both wait for the candidate.
      const held = answersWithheld(row);
      view.details = {
        answers: held ? null : (answers.get(row.analysis_id) ?? []).map((a) => ({ itemId: a.item_id, value: a.value, answeredAt: a.answered_at })),
        pageMs: held ? null : [...(pageTimes.get(row.analysis_id) ?? [])],
        result:
          held || !stored || !instrument ? undefined : buildResult(instrument, deps.competences, stored, normGroup, 'en' satisfies Language, row.language),
      };
    }
    return view;
  });
}

/** The requester's tenant's assessment's view; another tenant's reads as none. */
export async function readAssessment(deps: ViewDeps, requester: Pick<Requester, 'tenantId'>, analysisId: string): Promise<AssessmentView | undefined> {
  const row = await findOwnAssessment(deps.store, requester.tenantId, analysisId);
  return row && (await assessmentViews(deps, [row]))[0];
}

/** Everything Assay holds about a candidate: a data subject's access request. */
export interface CandidateRecord {
  candidate: CandidateRow;
  /** Oldest first, each with its details. */
  assessments: AssessmentView[];
  retentionDays: number;
  /** When retention erases it all (ms since the epoch); null while an assessment is open. */
  erasedAfter: number | null;
}

/** The requester's tenant's candidate's record, in a fixed number of queries; another tenant's reads as none. */
export async function readCandidate(
  deps: ViewDeps & Pick<Deps, 'config'>,
  requester: Pick<Requester, 'tenantId'>,
  externalId: string,
): Promise<CandidateRecord | undefined> {
  const { store } = deps;
  const candidate = await findOwnCandidate(store, requester.tenantId, externalId);
  if (!candidate) return undefined;
  const rows = await assessmentsOfCandidate(store, externalId);
  const days = await retentionDays(store, requester.tenantId, deps.config.lifecycle.retentionDays);
  return {
    candidate,
    assessments: await assessmentViews(deps, rows, { details: true }),
    retentionDays: days,
    erasedAfter: erasureDue(candidate.created_at, rows, days),
  };
}
