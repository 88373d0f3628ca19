import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentCancelled, AssessmentParams } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { cancelAssessment } from '../../assessments/cancel-assessment.js';

/** Withdraws an assessment that is not completed: its link then shows a page that says so. */
export function assessmentCancel(app: App, deps: Deps): void {
  app.delete(
    '/api/anonymous/assessment/:AnalysisId',
    {
      schema: {
        summary: 'Cancel an assessment (extension)',
        description:
          "Not in the original specification. The status becomes Cancelled and the candidate's link shows that the questionnaire was withdrawn. " +
          "Cancelling again (or after expiry) is no error. A completed assessment cannot be cancelled (409): erase the candidate's data instead. No webhook is sent.",
        tags: ['Extensions'],
        params: AssessmentParams,
        response: { 200: AssessmentCancelled, ...apiErrors({ body: false }, 'NotFound', 'AlreadyCompleted') },
      },
    },
    async (request) => {
      const { AnalysisId } = request.params;
      const cancelled = await cancelAssessment(deps, request.caller!, AnalysisId);
      if (cancelled.outcome === 'not-found') throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      if (cancelled.outcome !== 'cancelled') {
        throw new DomainError('AlreadyCompleted', "A completed assessment cannot be cancelled; erase the candidate's data to remove it", {
          field: 'AnalysisId',
        });
      }
      return { StatusCode: 200, Message: null, Data: { AnalysisId, Status: 'Cancelled' as const, CancelledAt: cancelled.cancelledAt } };
    },
  );
}
