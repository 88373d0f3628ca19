import type { App, Deps } from '../app-types.js';
import { rateLimitHeaders } from '../api/key-limit.js';
import { DomainError } from '../domain/errors.js';
import { AssessmentParams } from '../schemas/assessment.js';
import { apiErrors } from '../schemas/errors.js';
import { findAssessment } from '../store/assessments.js';
import { listMessages, requestResend, RESENDS_PER_HOUR, type MailRow } from './outbox-store.js';
import { maskAddress, maskAddressesIn } from './rules.js';
import { InvitationQueued, MailLog } from './schemas.js';

const capitalize = <S extends string>(s: S) => (s.charAt(0).toUpperCase() + s.slice(1)) as Capitalize<S>;

/** One message as the mail log shows it: the recipient and any address in the reply masked. */
function messageView(m: MailRow) {
  return {
    Id: m.id,
    Kind: capitalize(m.kind),
    Status: capitalize(m.status),
    Recipient: m.recipient === null ? null : maskAddress(m.recipient),
    Attempts: Number(m.attempts),
    LastReply: m.smtp_reply === null ? null : maskAddressesIn(m.smtp_reply),
    RequestedBy: m.requested_by,
    CreatedAt: m.created_at,
    DueAt: m.due_at,
    LastAttemptAt: m.last_attempt_at,
    SentAt: m.sent_at,
  };
}

export const NO_SMTP = 'This server sends no e-mail: SMTP_URL is not set';

/** The invitation sent again, and the mail log of an assessment. */
export function mailRoutes(app: App, { store, config, mail }: Deps): void {
  app.post(
    '/api/anonymous/assessment/:AnalysisId/invitation',
    {
      schema: {
        summary: 'E-mail the invitation to the candidate again (extension)',
        description:
          'Queues the invitation once more (202); it goes out within seconds, and is retried for up to 24 hours if the SMTP server cannot take it. ' +
          'A reminder that was waiting is cancelled: the new invitation schedules its own. ' +
          `At most ${RESENDS_PER_HOUR} per assessment per hour (then 429). 409 NotSendable when the assessment is completed, cancelled or expired, or an invitation is on its way. ` +
          '400 when the server has no SMTP_URL. No body needed.',
        tags: ['Mail'],
        params: AssessmentParams,
        response: { 202: InvitationQueued, ...apiErrors({ body: false }, 'NotFound', 'NotSendable', 'UnsupportedMediaType') },
      },
    },
    async (request, reply) => {
      const { AnalysisId } = request.params;
      const caller = request.caller!;
      if (!config.mail) throw new DomainError('ValidationError', NO_SMTP, { field: 'AnalysisId', setting: 'SMTP_URL' });
      const r = await requestResend(store, AnalysisId, caller.tenantId, `api:${caller.apiKeyId}`);
      if (r.outcome === 'not-found') throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      if (r.outcome === 'limited') {
        rateLimitHeaders(reply, RESENDS_PER_HOUR, 0, r.retryAfterSeconds);
        throw new DomainError('TooManyRequests', `At most ${RESENDS_PER_HOUR} invitations per assessment per hour`, { retryAfterSeconds: r.retryAfterSeconds });
      }
      if (r.outcome === 'closed') throw new DomainError('NotSendable', r.why, { field: 'AnalysisId', reason: 'closed' });
      if (r.outcome === 'in-progress') throw new DomainError('NotSendable', 'An invitation for this assessment is waiting or on its way; see its mail log', { field: 'AnalysisId', reason: 'in-progress' });
      mail.wake();
      return reply.code(202).send({ StatusCode: 202, Message: null, Data: { MessageId: r.id, Status: 'Pending' as const } });
    },
  );

  app.get(
    '/api/anonymous/assessment/:AnalysisId/emails',
    {
      schema: {
        summary: 'The mail log of an assessment (extension)',
        description:
          'Every invitation and reminder: its status, attempts, the SMTP server\'s last reply and its times, with the recipient masked. ' +
          'Empty when none was asked for. Erasure removes it with the assessment. Another tenant\'s assessment is 404.',
        tags: ['Mail'],
        params: AssessmentParams,
        response: { 200: MailLog, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    async (request) => {
      const { AnalysisId } = request.params;
      const row = await findAssessment(store, AnalysisId);
      if (!row || row.tenant_id !== request.caller!.tenantId) throw new DomainError('NotFound', 'No assessment found with this AnalysisId', { field: 'AnalysisId' });
      return { StatusCode: 200, Message: null, Data: (await listMessages(store, AnalysisId)).map(messageView) };
    },
  );
}
