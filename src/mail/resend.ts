import type { Deps } from '../app-types.js';
import type { Requester } from '../assessments/requester.js';
import { requestResend, type Resend } from './queue-store.js';

/**
 * E-mails the invitation of the requester's tenant's assessment again, and wakes the mailer when
 * it was queued (queue-store.requestResend has the rules). `by` says who asked, for the mail log.
 */
export async function resendInvitation(
  deps: Pick<Deps, 'store' | 'config' | 'mail'>,
  requester: Pick<Requester, 'tenantId'>,
  analysisId: string,
  by: string,
): Promise<Resend | { outcome: 'no-mail' }> {
  if (!deps.config.mail) return { outcome: 'no-mail' };
  const resent = await requestResend(deps.store, analysisId, requester.tenantId, by, deps.config.mail);
  if (resent.outcome === 'queued') deps.mail.wake();
  return resent;
}
