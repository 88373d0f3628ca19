import { Type } from 'typebox';
import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import type { Language } from '../../measurement/instruments/types.js';
import { negotiateLanguage } from '../../domain/language.js';
import { AssessmentParams } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { currentOwnSummary, pdfFilename, REPORT_CSP, reportHtmlOf, reportPdfOf, withheld } from '../../reports/render.js';

const ReportQuery = Type.Object({
  lang: Type.Optional(Type.Union([Type.Literal('nl'), Type.Literal('en')], { description: 'Language; else Accept-Language, else English.' })),
  format: Type.Optional(Type.Union([Type.Literal('html'), Type.Literal('pdf')], { description: 'pdf, or send Accept: application/pdf; HTML otherwise.' })),
});

export function wantsPdf(format: string | undefined, accept: string | undefined): boolean {
  if (format) return format === 'pdf';
  return /application\/pdf/i.test(accept ?? '') && !/text\/html/i.test(accept ?? '');
}

/** The report of a completed assessment, for a caller with credentials: an HTML page or a PDF. */
export function report(app: App, deps: Deps): void {
  app.get(
    '/api/anonymous/assessment/:AnalysisId/report',
    {
      schema: {
        summary: 'The report of a completed assessment (extension)',
        description:
          'An accessible HTML page (default) or a PDF (`?format=pdf` or `Accept: application/pdf`), in `?lang=nl|en`. ' +
          "An unfinished assessment, or another tenant's, is 404. When the candidate has not released the results (a portal setting), 409 ResultsNotReleased. " +
          'For people without API credentials, give them the ReportUrl from the status lookup or the results endpoint.',
        tags: ['Results'],
        params: AssessmentParams,
        querystring: ReportQuery,
        response: {
          200: {
            description: 'The report',
            content: { 'text/html': { schema: { type: 'string' } }, 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...apiErrors({ body: false }, 'NotFound', 'ResultsNotReleased'),
        },
      },
    },
    async (request, reply) => {
      const { AnalysisId } = request.params;
      const row = await currentOwnSummary(deps, request.caller!.tenantId, AnalysisId);
      const notFound = () => new DomainError('NotFound', 'No completed assessment found with this AnalysisId', { field: 'AnalysisId' });
      if (!row || row.status !== 'Completed') throw notFound();
      if (withheld(row)) throw new DomainError('ResultsNotReleased', 'The candidate has not released the results of this assessment');
      const lang: Language = request.query.lang ?? negotiateLanguage(request.headers['accept-language']);
      reply.header('x-robots-tag', 'noindex, nofollow').header('vary', 'Accept, Accept-Language');
      if (wantsPdf(request.query.format, request.headers.accept)) {
        const pdf = await reportPdfOf(deps, row, lang);
        if (!pdf) throw notFound();
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${pdfFilename(row.external_id)}"`)
          .send(pdf);
      }
      const html = await reportHtmlOf(deps, row, lang);
      if (!html) throw notFound();
      return reply.type('text/html; charset=utf-8').header('content-security-policy', REPORT_CSP).send(html);
    },
  );
}
