import type { Deps } from '../app-types.js';
import type { Language } from '../measurement/instruments/types.js';
import { buildResult, type Result } from '../measurement/result.js';
import type { Html } from '../platform/html.js';
import { findAssessment, findAssessmentSummary, type AssessmentSummary, type AssessmentRow } from '../assessments/assessments-store.js';
import { findCandidate, type CandidateRow } from '../assessments/candidates-store.js';
import { renderCache } from './render-cache.js';
import { portalSettings } from '../tenancy/portal-settings-store.js';
import { pinnedNormGroup, storedResult } from '../measurement/results-store.js';
import { reportPage } from './html.js';
import { reportModel, type ReportModel } from './model.js';

/** Whether the candidate has kept the results back: the portal asks and they have not said yes (or took it back). */
export function withheld(row: Pick<AssessmentRow, 'results_release'>): boolean {
  return row.results_release === 'pending' || row.results_release === 'declined';
}

/**
 * Whether the answers are kept back too: while the results are withheld, and until the candidate
 * finishes. Answers are the candidate's from Start, and scoring is public, so they would give
 * the results away.
 */
export function answersWithheld(row: Pick<AssessmentRow, 'results_release' | 'status'>): boolean {
  return withheld(row) || row.status !== 'Completed';
}

const RELEASE = { none: 'NotRequired', pending: 'Pending', released: 'Released', declined: 'Declined' } as const;

/** The release state as callers see it (ResultsRelease). */
export function releaseState(row: AssessmentRow): (typeof RELEASE)[keyof typeof RELEASE] {
  return RELEASE[row.results_release ?? 'none'];
}

/** A completed assessment's result in one language; undefined until it is completed. */
export async function resultOf(deps: Pick<Deps, 'store' | 'instruments' | 'competences'>, row: AssessmentRow, lang: Language): Promise<Result | undefined> {
  const stored = storedResult(row);
  if (!stored) return undefined;
  return buildResult(deps.instruments.get(row.assessment_type)!, deps.competences, stored, await pinnedNormGroup(deps.store, row), lang, row.language);
}

// Made once: a DateTimeFormat costs far more to build than to use.
const STAMP = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  nl: new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
} satisfies Record<Language, Intl.DateTimeFormat>;
const stamp = (lang: Language) => STAMP[lang].format(new Date()) + ' UTC';

type Fingerprinted = Pick<AssessmentRow, 'status' | 'completed_at' | 'norm_group_id' | 'results_release' | 'report_nonce' | 'portal_domain' | 'external_id'> & {
  translated_norms: number | null;
};

/** The columns of the assessment, and the portal setting, a result depends on (scores never change once completed). */
function resultFingerprint(row: Fingerprinted): string {
  const translated = row.translated_norms === 1 ? 'allow' : '';
  return [row.status, row.completed_at, row.norm_group_id, row.results_release, row.report_nonce, row.portal_domain, row.external_id, translated].join(
    '\u0000',
  );
}

/** An assessment's row as a render reads it: with its portal's translated-norms setting. */
export type RenderRow = AssessmentRow & { translated_norms: number };

async function renderRow(deps: Pick<Deps, 'store'>, analysisId: string): Promise<RenderRow | undefined> {
  const row = await findAssessment(deps.store, analysisId);
  return row && { ...row, translated_norms: (await portalSettings(deps.store, row.api_key_id)).translated_norms };
}

/** A report also shows the candidate's name: every change to it moves the candidate's updated_at. */
function reportFingerprint(row: Fingerprinted, candidateUpdatedAt: string): string {
  return `${resultFingerprint(row)}\u0000${candidateUpdatedAt}`;
}

const sourceOf = (summary: AssessmentSummary, fingerprint: string) => ({ analysisId: summary.analysis_id, fingerprint });
// A summary is kept under the summaries version it was read after.
const summarySource = (analysisId: string, version: number) => ({ analysisId, fingerprint: String(version) });

/** A summary's rough size in memory, for the cache's byte bound: ten short strings. */
const SUMMARY_BYTES = 512;

/**
 * The assessment's summary as the database holds it now. On SQLite a summary is kept beside the renders
 * under the summaries version it was read after (`Store.summariesVersion`), and served while that version
 * holds: no committed change to anything in it since, by any process. Otherwise it is read.
 */
export async function currentSummary(deps: Pick<Deps, 'store'>, analysisId: string): Promise<AssessmentSummary | undefined> {
  // Read before the summary: a summary is never kept under a version newer than what it shows.
  const version = deps.store.summariesVersion();
  if (version === undefined) return findAssessmentSummary(deps.store, analysisId);
  const source = summarySource(analysisId, version);
  return renderCache(deps.store).get(
    source,
    'summary',
    async () => {
      const summary = await findAssessmentSummary(deps.store, analysisId);
      return summary && { value: summary, fingerprint: source.fingerprint, externalId: summary.external_id };
    },
    () => SUMMARY_BYTES,
  );
}

/** The tenant's own assessment's summary; another tenant's reads as none. */
export async function currentOwnSummary(deps: Pick<Deps, 'store'>, tenantId: string, analysisId: string): Promise<AssessmentSummary | undefined> {
  const summary = await currentSummary(deps, analysisId);
  return summary?.tenant_id === tenantId ? summary : undefined;
}

/**
 * What `currentSummary` then `cachedRender` would give when both are kept, without awaiting either:
 * an ATS polling for results mostly asks again for what it was given. Undefined when either
 * must be read or made, and when the summary is another tenant's.
 */
export function peekCachedRender<V>(deps: Pick<Deps, 'store'>, analysisId: string, tenantId: string, variant: string): V | undefined {
  const version = deps.store.summariesVersion();
  if (version === undefined) return undefined;
  const cache = renderCache(deps.store);
  const summary = cache.peek<AssessmentSummary>(summarySource(analysisId, version), 'summary');
  return summary && summary.tenant_id === tenantId ? cache.peek<V>(sourceOf(summary, resultFingerprint(summary)), variant) : undefined;
}

/**
 * A render of a completed assessment's result (the results endpoint's body), kept while its row is
 * unchanged. A kept render costs the summary's read only; `make` gets the whole row, read afresh.
 * Undefined if the assessment is gone by then.
 */
export function cachedRender<V>(
  deps: Pick<Deps, 'store'>,
  summary: AssessmentSummary,
  variant: string,
  make: (row: RenderRow) => Promise<V>,
  sizeOf: (value: V) => number,
): Promise<V | undefined> {
  return renderCache(deps.store).get(
    sourceOf(summary, resultFingerprint(summary)),
    variant,
    async () => {
      const row = await renderRow(deps, summary.analysis_id);
      return row && { value: await make(row), fingerprint: resultFingerprint(row), externalId: row.external_id };
    },
    sizeOf,
  );
}

async function modelFrom(deps: Deps, row: AssessmentRow, candidate: CandidateRow, lang: Language): Promise<ReportModel | undefined> {
  const result = await resultOf(deps, row, lang);
  if (!result) return undefined;
  const instrument = deps.instruments.get(row.assessment_type)!;
  return reportModel({
    lang,
    candidate,
    instrument,
    completedAt: row.completed_at!,
    result,
    interpretations: deps.interpretations,
    contentVersion: row.content_version,
  });
}

/**
 * A report rendered by `render` and kept while its rows are unchanged; undefined until completed
 * or after erasure. The rows it is made from are read only when it is made.
 */
async function cachedReport(
  deps: Deps,
  summary: AssessmentSummary,
  lang: Language,
  variant: string,
  render: (model: ReportModel) => Buffer | Promise<Buffer>,
): Promise<Buffer | undefined> {
  if (summary.status !== 'Completed' || !summary.completed_at || summary.candidate_updated_at === null) return undefined;
  return renderCache(deps.store).get(
    sourceOf(summary, reportFingerprint(summary, summary.candidate_updated_at)),
    variant,
    async () => {
      const row = await renderRow(deps, summary.analysis_id);
      const candidate = row && (await findCandidate(deps.store, row.external_id));
      const model = row && candidate && (await modelFrom(deps, row, candidate, lang));
      return model && { value: await render(model), fingerprint: reportFingerprint(row, candidate.updated_at), externalId: row.external_id };
    },
    (bytes) => bytes.length,
  );
}

/** The report as an HTML page, UTF-8 (with a link to its PDF when given); undefined until completed or after erasure. */
export function reportHtmlOf(deps: Deps, summary: AssessmentSummary, lang: Language, pdfHref?: string): Promise<Buffer | undefined> {
  return cachedReport(deps, summary, lang, `html:${lang}:${pdfHref ?? ''}`, (model) => Buffer.from(reportHtml(model, pdfHref).value));
}

/**
 * The report as a PDF; undefined until completed or after erasure. It waits for a PDF thread in
 * the line of the assessment's tenant, whoever asks: its API key or its share link.
 */
export function reportPdfOf(deps: Deps, summary: AssessmentSummary, lang: Language): Promise<Buffer | undefined> {
  return cachedReport(deps, summary, lang, `pdf:${lang}`, (model) => deps.pdfs.render(model, stamp(model.lang), summary.tenant_id));
}

/**
 * The PDF of a report whose page was just opened, made ahead and kept, when no PDF thread is
 * running: the page links to it, and a thread's first PDF takes about a second (the thread starts,
 * parses its fonts and shapes the texts). A click then gets the kept PDF or joins its making.
 * While threads run, and for every other page opened meanwhile, nothing is made ahead, so at
 * most one PDF nobody asks for is made each time the threads have ended after 10 idle minutes.
 */
export function pdfAhead(deps: Deps, summary: AssessmentSummary, lang: Language): void {
  deps.pdfs.ahead(() => reportPdfOf(deps, summary, lang));
}

function reportHtml(model: ReportModel, pdfHref?: string): Html {
  return reportPage(model, { generatedAt: stamp(model.lang), ...(pdfHref ? { pdfHref } : {}) });
}

/** The report's strict CSP: its own stylesheet, an inline SVG chart, nothing else. */
export const REPORT_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** A filename from the caller's own id: never the AnalysisId, which is a bearer link. */
export function pdfFilename(externalId: string): string {
  return `assessment-report-${externalId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80)}.pdf`;
}

/** The share link of a completed assessment's report, on its portal domain; null before completion, while withheld, or after erasure. */
export function reportUrl(
  deps: Pick<Deps, 'reportLinks'>,
  row: Pick<AssessmentRow, 'status' | 'report_nonce' | 'portal_domain' | 'analysis_id' | 'results_release'>,
): string | null {
  if (row.status !== 'Completed' || !row.report_nonce || withheld(row)) return null;
  return row.portal_domain + deps.reportLinks.path(row.analysis_id, row.report_nonce);
}
