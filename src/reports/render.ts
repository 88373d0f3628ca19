import type { Deps } from '../app-types.js';
import type { Language } from '../domain/instruments/types.js';
import { buildResult, type Result } from '../domain/results/result.js';
import type { Html } from '../html.js';
import type { AssessmentRow } from '../store/assessments.js';
import { findCandidate } from '../store/candidates.js';
import { pinnedNormGroup, storedResult } from '../store/results.js';
import { reportPage } from './html.js';
import { reportModel, type ReportModel } from './model.js';
import { reportPdf } from './pdf.js';
import { Turns } from './turns.js';

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

/** The report's model for a completed assessment; undefined until completed or after erasure. */
export async function reportModelOf(deps: Deps, row: AssessmentRow, lang: Language): Promise<ReportModel | undefined> {
  const result = await resultOf(deps, row, lang);
  const candidate = result && (await findCandidate(deps.store, row.external_id));
  if (!result || !candidate || !row.completed_at) return undefined;
  const instrument = deps.instruments.get(row.assessment_type)!;
  return reportModel({ lang, candidate, instrument, completedAt: row.completed_at, result, interpretations: deps.interpretations });
}

const stamp = (lang: Language) => new Date().toLocaleString(lang === 'nl' ? 'nl-NL' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

export function reportHtml(model: ReportModel, pdfHref?: string): Html {
  return reportPage(model, { generatedAt: stamp(model.lang), ...(pdfHref ? { pdfHref } : {}) });
}

/** PDFs are rendered one at a time, with up to 32 waiting (reports/turns.ts). */
const pdfTurns = new Turns(32);

export function reportPdfOf(model: ReportModel): Promise<Buffer> {
  return pdfTurns.run(() => reportPdf(model, stamp(model.lang)));
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
