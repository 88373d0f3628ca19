import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentParams, AssessmentStatus } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { readAssessment } from '../../assessments/views.js';
import { assessmentStatus } from '../assessment-view.js';

/** Beyond the spec: a caller whose webhook got lost can look up the outcome. */
export function assessmentGet(app: App, deps: Deps): void {
  app.get(
    '/api/anonymous/assessment/:AnalysisId',
    {
      schema: {
        summary: 'Look up an assessment (extension)',
        description:
          'Not in the original specification. Status, timestamps, progress, the webhook attempt and, once completed (and released by the candidate where the portal asks), the raw scale scores, the consistency score, ' +
          "integrity flags and the norm group pinned at completion. Only the caller's own tenant's assessments are visible; others are 404.",
        tags: ['Extensions'],
        params: AssessmentParams,
        response: { 200: AssessmentStatus, ...apiErrors({ body: false }, 'NotFound') },
      } as Record<string, unknown>,
    },
    async (request, reply) => {
      const { AnalysisId } = request.params as { AnalysisId: string };
      const view = await readAssessment(deps, request.caller!, AnalysisId);
      if (!view) {
        throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      }
      reply.header('cache-control', 'no-store');
      return { StatusCode: 200, Message: null, Data: assessmentStatus(view) };
    },
  );
}
