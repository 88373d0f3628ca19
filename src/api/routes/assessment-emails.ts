import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentParams } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { findOwnAssessment } from '../../assessments/assessments-store.js';
import { listMessages } from '../../mail/outbox-store.js';
import { messageView } from '../../mail/mail-view.js';
import { MailLog } from '../../mail/schemas.js';

/** The mail log of an assessment. */
export function assessmentEmails(app: App, { store }: Deps): void {
  app.get(
    '/api/anonymous/assessment/:AnalysisId/emails',
    {
      schema: {
        summary: 'The mail log of an assessment (extension)',
        description:
          "Every invitation and reminder: its status, attempts, the SMTP server's last reply and its times, with the recipient masked. " +
          "Empty when none was asked for. Erasure removes it with the assessment. Another tenant's assessment is 404.",
        tags: ['Mail'],
        params: AssessmentParams,
        response: { 200: MailLog, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    async (request) => {
      const { AnalysisId } = request.params;
      const row = await findOwnAssessment(store, request.caller!.tenantId, AnalysisId);
      if (!row) throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      return { StatusCode: 200, Message: null, Data: (await listMessages(store, AnalysisId)).map(messageView) };
    },
  );
}
