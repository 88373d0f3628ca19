import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentParams, ReportLinksRevoked } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { revokeReportLinks } from '../../reports/share-links-store.js';

/** Stops every share link of a report at once, as `bin/assay report revoke` does, for the tenant itself. */
export function reportLinksRevoke(app: App, { store }: Deps): void {
  app.delete(
    '/api/anonymous/assessment/:AnalysisId/report-links',
    {
      schema: {
        summary: 'Revoke the share links of a report (extension)',
        description:
          'Not in the original specification. Every share link (ReportUrl) of this assessment made so far stops working at once, on every instance; ' +
          "the status lookup and the results endpoint then give a new one. 404 when the assessment is not the caller's tenant's or has no report (not completed, or erased).",
        tags: ['Extensions'],
        params: AssessmentParams,
        response: { 200: ReportLinksRevoked, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    async (request) => {
      const { AnalysisId } = request.params;
      if (!(await revokeReportLinks(store, AnalysisId, request.caller!.tenantId))) {
        throw new DomainError('NotFound', 'No completed assessment with a report found with this AnalysisId', { field: 'AnalysisId' });
      }
      return { StatusCode: 200, Message: null, Data: { AnalysisId, Revoked: true as const } };
    },
  );
}
