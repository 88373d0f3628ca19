import type { Deps } from '../app-types.js';
import type { Language } from '../domain/instruments/types.js';
import { buildResult, type Result } from '../domain/results/result.js';
import type { Html } from '../html.js';
import type { AssessmentRow } from '../store/assessments.js';
import { findCandidate, type CandidateRow } from '../store/candidates.js';
import { renderCache, type RenderSource } from '../store/render-cache.js';
import { pinnedNormGroup, storedResult } from '../store/results.js';
import { reportPage } from './html.js';
import { reportModel, type ReportModel } from './model.js';

/** Whether the candidate has kept the results back: the portal asks and they have not said yes. */
export function withheld(row: AssessmentRow): boolean {
  return row.results_release === 'pending' || row.results_release === 'declined';
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
  return buildResult(deps.instruments.get(row.assessment_type)!, deps.competences, stored, await pinnedNormGroup(deps.store, row), lang);
}

// Made once: a DateTimeFormat costs far more to build than to use.
const STAMP = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  nl: new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
} satisfies Record<Language, Intl.DateTimeFormat>;
const stamp = (lang: Language) => STAMP[lang].format(new Date()) + ' UTC';

/** The columns of the assessment a result depends on (scores never change once completed). */
function resultFingerprint(row: AssessmentRow): string {
  return [row.status, row.completed_at, row.norm_group_id, row.results_release, row.report_nonce, row.portal_domain, row.external_id].join('\u0000');
}

/** A render of a completed assessment's result (the results endpoint's body), kept while its row is unchanged. */
export function cachedRender<V>(deps: Pick<Deps, 'store'>, row: AssessmentRow, variant: string, make: () => Promise<V>, sizeOf: (value: V) => number): Promise<V> {
  const source = { analysisId: row.analysis_id, externalId: row.external_id, fingerprint: resultFingerprint(row) };
  return renderCache(deps.store).get(source, variant, make, sizeOf);
}

/**
 * What a report is made from: the assessment row and its candidate, read for this request.
 * Undefined until completed or after erasure.
 */
async function reportSource(deps: Deps, row: AssessmentRow): Promise<{ candidate: CandidateRow; source: RenderSource } | undefined> {
  if (row.status !== 'Completed' || !row.completed_at) return undefined;
  const candidate = await findCandidate(deps.store, row.external_id);
  if (!candidate) return undefined;
  // The candidate's name is on the report; every change to it moves updated_at.
  return { candidate, source: { analysisId: row.analysis_id, externalId: row.external_id, fingerprint: `${resultFingerprint(row)}\u0000${candidate.updated_at}` } };
}

async function modelFrom(deps: Deps, row: AssessmentRow, candidate: CandidateRow, lang: Language): Promise<ReportModel | undefined> {
  const result = await resultOf(deps, row, lang);
  if (!result) return undefined;
  const instrument = deps.instruments.get(row.assessment_type)!;
  return reportModel({ lang, candidate, instrument, completedAt: row.completed_at!, result, interpretations: deps.interpretations });
}

/** A report rendered by `render` and kept while its rows are unchanged; undefined until completed or after erasure. */
async function cachedReport(deps: Deps, row: AssessmentRow, lang: Language, variant: string, render: (model: ReportModel) => Buffer | Promise<Buffer>): Promise<Buffer | undefined> {
  const read = await reportSource(deps, row);
  if (!read) return undefined;
  return renderCache(deps.store).get(
    read.source,
    variant,
    async () => {
      const model = await modelFrom(deps, row, read.candidate, lang);
      return model && render(model);
    },
    (bytes) => bytes?.length ?? 0,
  );
}

/** The report as an HTML page, UTF-8 (with a link to its PDF when given); undefined until completed or after erasure. */
export function reportHtmlOf(deps: Deps, row: AssessmentRow, lang: Language, pdfHref?: string): Promise<Buffer | undefined> {
  return cachedReport(deps, row, lang, `html:${lang}:${pdfHref ?? ''}`, (model) => Buffer.from(reportHtml(model, pdfHref).value));
}

/** The report as a PDF; undefined until completed or after erasure. */
export function reportPdfOf(deps: Deps, row: AssessmentRow, lang: Language): Promise<Buffer | undefined> {
  return cachedReport(deps, row, lang, `pdf:${lang}`, (model) => deps.pdfs.render(model, stamp(model.lang)));
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

/** The share link of a completed assessment's report, on its portal domain; null before completion or after erasure. */
export function reportUrl(deps: Pick<Deps, 'reportLinks'>, row: AssessmentRow): string | null {
  return row.status === 'Completed' && row.report_nonce ? row.portal_domain + deps.reportLinks.path(row.analysis_id, row.report_nonce) : null;
}
