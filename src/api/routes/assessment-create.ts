import type { App, Deps } from '../../app-types.js';
import { createAssessment } from '../../assessments/create-assessment.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentCreateBody, AssessmentCreated } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { cappedError } from '../../mail/rules.js';
import { rateLimitHeaders } from '../../http/key-limit.js';
import { caseInsensitiveBody } from '../case-insensitive.js';
import { API_FIELD_NAMES } from '../field-names.js';
import { bodyExternalId, idempotentCreate } from '../../idempotency/hooks.js';
import { IdempotencyHeaders } from '../../schemas/idempotency.js';

export function assessmentCreate(app: App, deps: Deps): void {
  app.post(
    '/api/anonymous/assessment',
    {
      schema: {
        summary: 'Create an assessment for an existing candidate',
        tags: ['Assessments'],
        headers: IdempotencyHeaders,
        body: AssessmentCreateBody,
        response: {
          201: AssessmentCreated,
          ...apiErrors({ body: true }, 'NoCandidateFound', 'InvalidAssessmentType', 'WebhookUrlNotAllowed', 'IdempotencyKeyInUse', 'IdempotencyKeyReused'),
        },
      },
      ...idempotentCreate(deps.store, bodyExternalId),
      preValidation: caseInsensitiveBody(AssessmentCreateBody),
    },
    async (request, reply) => {
      const body = request.body;
      const created = await createAssessment(
        deps,
        request.caller!,
        {
          externalId: body.ExternalId,
          assessmentType: body.AssessmentType,
          returnUrl: body.ReturnUrl,
          webhookUrl: body.WebhookUrl,
          webhookUsername: body.WebhookUsername,
          webhookPassword: body.WebhookPassword,
          expiresAt: body.ExpiresAt,
          invitation: body.SendInvitation === undefined ? 'portal-default' : body.SendInvitation ? 'send' : 'none',
        },
        API_FIELD_NAMES,
      );
      if (created.outcome === 'no-mail') {
        throw new DomainError('ValidationError', 'SendInvitation needs e-mail, and this server sends none: SMTP_URL is not set', {
          field: 'SendInvitation',
          setting: 'SMTP_URL',
        });
      }
      if (created.outcome === 'capped') {
        rateLimitHeaders(reply, created.limit, 0, created.retryAfterSeconds);
        throw cappedError(created);
      }
      if (created.outcome === 'no-candidate') {
        throw new DomainError('NoCandidateFound', 'No candidate found', { field: 'ExternalId' });
      }
      return reply.code(201).send({
        StatusCode: 201,
        Message: null,
        Data: { AnalysisId: created.analysisId, AssessmentUrl: created.assessmentUrl },
      });
    },
  );
}
