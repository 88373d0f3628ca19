import type { App, Deps } from '../../app-types.js';
import { assessmentUrl, checkAssessmentRequest } from '../../assessments/rules.js';
import { DomainError } from '../../domain/errors.js';
import { expiryFor } from '../../lifecycle/rules.js';
import { AssessmentCreateBody, AssessmentCreated } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { newAnalysisId } from '../../security/tokens.js';
import { insertAssessment, type NewAssessment } from '../../assessments/assessments-store.js';
import { insertWithInvitation } from '../../mail/queue-store.js';
import { cappedError } from '../../mail/rules.js';
import { rateLimitHeaders } from '../../http/key-limit.js';
import { caseInsensitiveBody } from '../case-insensitive.js';
import { bodyExternalId, idempotentCreate } from '../../idempotency/hooks.js';
import { IdempotencyHeaders } from '../../schemas/idempotency.js';

export function assessmentCreate(app: App, { store, secretBox, config, mail }: Deps): void {
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
      ...idempotentCreate(store, bodyExternalId),
      preValidation: caseInsensitiveBody(AssessmentCreateBody),
    },
    async (request, reply) => {
      const body = request.body;
      const caller = request.caller!;
      const checked = checkAssessmentRequest(
        {
          assessmentType: body.AssessmentType,
          returnUrl: body.ReturnUrl,
          webhookUrl: body.WebhookUrl,
          webhookUsername: body.WebhookUsername,
          webhookPassword: body.WebhookPassword,
        },
        config.webhook.allowPrivateNetworks,
      );
      if (body.SendInvitation === true && !config.mail) {
        throw new DomainError('ValidationError', 'SendInvitation needs e-mail, and this server sends none: SMTP_URL is not set', {
          field: 'SendInvitation',
          setting: 'SMTP_URL',
        });
      }
      const analysisId = newAnalysisId();
      const webhook = checked.webhook;
      const row: NewAssessment = {
        analysis_id: analysisId,
        tenant_id: caller.tenantId,
        external_id: body.ExternalId,
        api_key_id: caller.apiKeyId,
        portal_domain: caller.portalDomain,
        assessment_type: body.AssessmentType,
        return_url: checked.returnUrl,
        webhook_url: webhook?.url ?? null,
        webhook_username: webhook?.username ?? null,
        webhook_password_enc: webhook?.password === undefined ? null : secretBox.seal(webhook.password, analysisId),
        status: 'Created',
        scores: null,
        created_at: new Date().toISOString(),
        started_at: null,
        completed_at: null,
        expires_at: expiryFor(body.ExpiresAt, config.lifecycle.expiryDays),
      };
      // Without mail, or told not to, creation is exactly what it was; else the invitation is queued in the same commit.
      const outcome =
        config.mail && body.SendInvitation !== false
          ? await insertWithInvitation(store, row, { portalDefault: body.SendInvitation === undefined, caps: config.mail })
          : await insertAssessment(store, row);
      if (typeof outcome === 'object') {
        rateLimitHeaders(reply, outcome.limit, 0, outcome.retryAfterSeconds);
        throw cappedError(outcome);
      }
      if (config.mail && outcome === 'created') mail.wake();
      if (outcome === 'no-candidate') {
        throw new DomainError('NoCandidateFound', 'No candidate found', { field: 'ExternalId' });
      }
      return reply.code(201).send({
        StatusCode: 201,
        Message: null,
        Data: { AnalysisId: analysisId, AssessmentUrl: assessmentUrl(caller.portalDomain, analysisId) },
      });
    },
  );
}
