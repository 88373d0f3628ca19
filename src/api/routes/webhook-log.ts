import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentParams, WebhookLog } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { findOwnAssessment } from '../../assessments/assessments-store.js';
import { listAttempts } from '../../webhooks/attempt-log-store.js';
import { attemptView } from '../../webhooks/webhook-view.js';

/** Every webhook attempt of an assessment, oldest first. */
export function webhookLog(app: App, { store }: Deps): void {
  app.get(
    '/api/anonymous/assessment/:AnalysisId/webhooks',
    {
      schema: {
        summary: 'The webhook delivery log of an assessment (extension)',
        description:
          "Not in the original specification. Every attempt: when, how long, the receiver's status code or why it failed (without internal addresses), " +
          "and whether it was the automatic one at completion or a manual redelivery. Empty before completion. Another tenant's assessment is 404.",
        tags: ['Webhooks'],
        params: AssessmentParams,
        response: { 200: WebhookLog, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    async (request) => {
      const { AnalysisId } = request.params;
      const row = await findOwnAssessment(store, request.caller!.tenantId, AnalysisId);
      if (!row) throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      return { StatusCode: 200, Message: null, Data: (await listAttempts(store, AnalysisId)).map(attemptView) };
    },
  );
}
