import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentParams, RedeliveryQueued } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { rateLimitHeaders } from '../../http/key-limit.js';
import { REDELIVERIES_PER_HOUR, requestRedelivery } from '../../webhooks/outbox-store.js';

const WHY: Record<string, string> = {
  'not-completed': 'The assessment is not completed: there is no completion to report yet',
  'no-webhook': 'The assessment has no WebhookUrl',
  'in-progress': 'An attempt for this assessment is waiting or on its way; see its delivery log',
};

/** One more attempt of a completed assessment's webhook, on an operator's explicit request. */
export function webhookRedeliver(app: App, deps: Deps): void {
  app.post(
    '/api/anonymous/assessment/:AnalysisId/webhook/redeliver',
    {
      schema: {
        summary: 'Send the completion webhook once more (extension)',
        description:
          "Not in the original specification, which allows one attempt: this is an operator's explicit act, never automatic, and how a delivery lost " +
          `(Unknown after a crash) or refused by a receiver that was down is recovered. The same body is sent once more. At most ${REDELIVERIES_PER_HOUR} ` +
          'manual attempts per assessment per hour (then 429); 409 NotRedeliverable when the assessment is not completed, has no WebhookUrl, or an attempt is under way. No body needed.',
        tags: ['Webhooks'],
        params: AssessmentParams,
        response: { 202: RedeliveryQueued, ...apiErrors({ body: false }, 'NotFound', 'NotRedeliverable', 'UnsupportedMediaType') },
      },
    },
    async (request, reply) => {
      const { AnalysisId } = request.params;
      const caller = request.caller!;
      const r = await requestRedelivery(deps.store, AnalysisId, `api:${caller.apiKeyId}`, caller.tenantId);
      if (r.outcome === 'not-found') throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      if (r.outcome === 'limited') {
        // The headers describe the limit that was hit, not the key's per-minute budget, which is not spent.
        rateLimitHeaders(reply, REDELIVERIES_PER_HOUR, 0, r.retryAfterSeconds);
        throw new DomainError('TooManyRequests', `At most ${REDELIVERIES_PER_HOUR} redeliveries per assessment per hour`, {
          retryAfterSeconds: r.retryAfterSeconds,
        });
      }
      if (r.outcome !== 'queued') throw new DomainError('NotRedeliverable', WHY[r.outcome]!, { field: 'AnalysisId', reason: r.outcome });
      deps.webhooks.wake();
      return reply.code(202).send({ StatusCode: 202, Message: null, Data: { AttemptId: r.attemptId, Status: 'Pending' as const } });
    },
  );
}
