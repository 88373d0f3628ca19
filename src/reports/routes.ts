import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, Deps } from '../app-types.js';
import type { Language } from '../measurement/instruments/types.js';
import { negotiateLanguage } from '../domain/language.js';
import type { Html } from '../platform/html.js';
import { ROOT } from '../platform/paths.js';
import type { AssessmentSummary } from '../assessments/assessments-store.js';
import { linkNotFoundPage, withheldPage } from './html.js';
import { currentSummary, pdfAhead, pdfFilename, REPORT_CSP, reportHtmlOf, reportPdfOf, withheld } from './render.js';

interface LinkQuery {
  expires?: string;
  sig?: string;
  lang?: string;
}

function language(request: FastifyRequest): Language {
  const lang = (request.query as LinkQuery).lang;
  return lang === 'nl' || lang === 'en' ? lang : negotiateLanguage(request.headers['accept-language']);
}

function sendHtml(reply: FastifyReply, page: Html | Buffer, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('content-security-policy', REPORT_CSP)
    .send(Buffer.isBuffer(page) ? page : page.value);
}

/**
 * Share links on the portal domain, for recruiters without API credentials: the HTML report and
 * its PDF. A link that is tampered with, expired or revoked gets the same HTML 404, and counts as
 * a guess against the client's address (the portal's limiter).
 */
export async function reportRoutes(app: App, deps: Deps): Promise<void> {
  async function linked(request: FastifyRequest, reply: FastifyReply): Promise<AssessmentSummary | undefined> {
    const { id } = request.params as { id: string };
    const { expires, sig } = request.query as LinkQuery;
    const row = /^[A-Za-z0-9_-]{16,64}$/.test(id) ? await currentSummary(deps, id) : undefined;
    if (row && row.status === 'Completed' && deps.reportLinks.valid(id, row.report_nonce, expires, sig)) return row;
    const wait = deps.tokenGuesses.retryAfter(request.ip);
    if (wait > 0) reply.header('retry-after', String(wait));
    else deps.tokenGuesses.count(request.ip);
    sendHtml(reply, linkNotFoundPage(language(request)), wait > 0 ? 429 : 404);
    return undefined;
  }

  /** The report's row behind a valid link, released; sends the 404, 429 or withheld page itself otherwise. */
  async function released(request: FastifyRequest, reply: FastifyReply): Promise<{ row: AssessmentSummary; lang: Language } | undefined> {
    const row = await linked(request, reply);
    if (!row) return undefined;
    const lang = language(request);
    if (!withheld(row)) return { row, lang };
    sendHtml(reply, withheldPage(lang));
    return undefined;
  }

  app.get('/:id', async (request, reply) => {
    const found = await released(request, reply);
    if (!found) return reply;
    const { row, lang } = found;
    const { expires, sig } = request.query as LinkQuery;
    const html = await reportHtmlOf(deps, row, lang, `/reports/${row.analysis_id}/pdf?expires=${expires}&sig=${sig}&lang=${lang}`);
    if (html === undefined) return sendHtml(reply, linkNotFoundPage(lang), 404);
    pdfAhead(deps, row, lang);
    return sendHtml(reply, html);
  });

  app.get('/:id/pdf', async (request, reply) => {
    const found = await released(request, reply);
    if (!found) return reply;
    const { row, lang } = found;
    const pdf = await reportPdfOf(deps, row, lang);
    if (!pdf) return sendHtml(reply, linkNotFoundPage(lang), 404);
    return reply
      .type('application/pdf')
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex, nofollow')
      .header('content-disposition', `attachment; filename="${pdfFilename(row.external_id)}"`)
      .send(pdf);
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
