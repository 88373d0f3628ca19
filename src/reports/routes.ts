import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, Deps } from '../app-types.js';
import type { Language } from '../domain/instruments/types.js';
import { negotiateLanguage } from '../domain/language.js';
import { fullName } from '../domain/names.js';
import type { Html } from '../html.js';
import { ROOT } from '../paths.js';
import { findAssessment, type AssessmentRow } from '../store/assessments.js';
import { findCandidate } from '../store/candidates.js';
import { linkNotFoundPage, withheldPage } from './html.js';
import type { ReportModel } from './model.js';
import { pdfFilename, REPORT_CSP, reportHtml, reportModelOf, reportPdfOf, withheld } from './render.js';

interface LinkQuery {
  expires?: string;
  sig?: string;
  lang?: string;
}

function language(request: FastifyRequest): Language {
  const lang = (request.query as LinkQuery).lang;
  return lang === 'nl' || lang === 'en' ? lang : negotiateLanguage(request.headers['accept-language']);
}

function sendHtml(reply: FastifyReply, page: Html, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('content-security-policy', REPORT_CSP)
    .send(page.value);
}

/**
 * Share links on the portal domain, for recruiters without API credentials: the HTML report and
 * its PDF. A link that is tampered with, expired or revoked gets the same HTML 404, and counts as
 * a guess against the client's address (the portal's limiter).
 */
export async function reportRoutes(app: App, deps: Deps): Promise<void> {
  async function linked(request: FastifyRequest, reply: FastifyReply): Promise<AssessmentRow | undefined> {
    const { id } = request.params as { id: string };
    const { expires, sig } = request.query as LinkQuery;
    const row = /^[A-Za-z0-9_-]{16,64}$/.test(id) ? await findAssessment(deps.store, id) : undefined;
    if (row && row.status === 'Completed' && deps.reportLinks.valid(id, row.report_nonce, expires, sig)) return row;
    const wait = deps.tokenGuesses.retryAfter(request.ip);
    if (wait > 0) reply.header('retry-after', String(wait));
    else deps.tokenGuesses.fail(request.ip);
    sendHtml(reply, linkNotFoundPage(language(request)), wait > 0 ? 429 : 404);
    return undefined;
  }

  async function candidateName(row: AssessmentRow): Promise<string> {
    const candidate = await findCandidate(deps.store, row.external_id);
    return candidate ? fullName(candidate) : '';
  }

  /** The report behind a valid link; sends the 404, 429 or withheld page itself otherwise. */
  async function linkedModel(request: FastifyRequest, reply: FastifyReply): Promise<{ row: AssessmentRow; lang: Language; model: ReportModel } | undefined> {
    const row = await linked(request, reply);
    if (!row) return undefined;
    const lang = language(request);
    if (withheld(row)) {
      sendHtml(reply, withheldPage(lang, await candidateName(row)));
      return undefined;
    }
    const model = await reportModelOf(deps, row, lang);
    if (!model) {
      sendHtml(reply, linkNotFoundPage(lang), 404);
      return undefined;
    }
    return { row, lang, model };
  }

  app.get('/:id', async (request, reply) => {
    const linkedReport = await linkedModel(request, reply);
    if (!linkedReport) return reply;
    const { row, lang, model } = linkedReport;
    const { expires, sig } = request.query as LinkQuery;
    const pdf = `/reports/${row.analysis_id}/pdf?expires=${expires}&sig=${sig}&lang=${lang}`;
    return sendHtml(reply, reportHtml(model, pdf));
  });

  app.get('/:id/pdf', async (request, reply) => {
    const linkedReport = await linkedModel(request, reply);
    if (!linkedReport) return reply;
    const { row, model } = linkedReport;
    return reply
      .type('application/pdf')
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex, nofollow')
      .header('content-disposition', `attachment; filename="${pdfFilename(row.external_id)}"`)
      .send(await reportPdfOf(model));
  });
}

/** The report's stylesheet. */
export async function reportAssets(app: App): Promise<void> {
  await app.register(fastifyStatic, {
    root: join(ROOT, 'src', 'reports', 'static'),
    prefix: '/assets/report/',
    maxAge: 3_600_000,
    index: false,
    list: false,
    decorateReply: false,
  });
}
