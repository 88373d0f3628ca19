import type { App, Deps } from '../../app-types.js';
import { rateLimitHeaders } from '../../http/key-limit.js';
import { DomainError } from '../../domain/errors.js';
import { AssessmentParams } from '../../schemas/assessment.js';
import { apiErrors } from '../../schemas/errors.js';
import { RESENDS_PER_HOUR } from '../../mail/queue-store.js';
import { resendInvitation } from '../../mail/resend.js';
import { cappedError, NO_SMTP } from '../../mail/rules.js';
import { InvitationQueued } from '../../mail/schemas.js';

/** The invitation e-mailed again. */
export function assessmentInvitation(app: App, deps: Deps): void {
  app.post(
    '/api/anonymous/assessment/:AnalysisId/invitation',
    {
      schema: {
        summary: 'E-mail the invitation to the candidate again (extension)',
        description:
          'Queues the invitation once more (202); it goes out within seconds, and is retried for up to 24 hours if the SMTP server cannot take it. ' +
          'A reminder that was waiting is cancelled: the new invitation schedules its own. ' +
          `At most ${RESENDS_PER_HOUR} per assessment per hour, and within the server's caps on invitations per address an hour and per tenant a minute (then 429 with Retry-After). 409 NotSendable when the assessment is completed, cancelled or expired, or an invitation is on its way. ` +
          '400 when the server has no SMTP_URL. No body needed.',
        tags: ['Mail'],
        params: AssessmentParams,
        response: { 202: InvitationQueued, ...apiErrors({ body: false }, 'NotFound', 'NotSendable', 'UnsupportedMediaType') },
      },
    },
    async (request, reply) => {
      const { AnalysisId } = request.params;
      const caller = request.caller!;
      const r = await resendInvitation(deps, caller, AnalysisId, `api:${caller.apiKeyId}`);
      if (r.outcome === 'no-mail') throw new DomainError('ValidationError', NO_SMTP, { field: 'AnalysisId', setting: 'SMTP_URL' });
      if (r.outcome === 'not-found') throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      if (r.outcome === 'limited') {
        rateLimitHeaders(reply, RESENDS_PER_HOUR, 0, r.retryAfterSeconds);
        throw new DomainError('TooManyRequests', `At most ${RESENDS_PER_HOUR} invitations per assessment per hour`, { retryAfterSeconds: r.retryAfterSeconds });
      }
      if (r.outcome === 'capped') {
        rateLimitHeaders(reply, r.limit, 0, r.retryAfterSeconds);
        throw cappedError(r);
      }
      if (r.outcome === 'closed') throw new DomainError('NotSendable', r.why, { field: 'AnalysisId', reason: 'closed' });
      if (r.outcome === 'in-progress')
        throw new DomainError('NotSendable', 'An invitation for this assessment is waiting or on its way; see its mail log', {
          field: 'AnalysisId',
          reason: 'in-progress',
        });
      return reply.code(202).send({ StatusCode: 202, Message: null, Data: { MessageId: r.id, Status: 'Pending' as const } });
    },
  );
}
