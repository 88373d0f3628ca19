import type { MailRow } from './outbox-store.js';
import { maskAddress, maskAddressesIn, tenantReply } from './rules.js';

const capitalize = <S extends string>(s: S) => (s.charAt(0).toUpperCase() + s.slice(1)) as Capitalize<S>;

/** One message as the mail log shows it: the recipient and any address in the reply masked, Assay's own network failures generalised. */
export function messageView(m: MailRow) {
  return {
    Id: m.id,
    Kind: capitalize(m.kind),
    Status: capitalize(m.status),
    Recipient: m.recipient === null ? null : maskAddress(m.recipient),
    Attempts: Number(m.attempts),
    LastReply: m.smtp_reply === null ? null : maskAddressesIn(tenantReply(m.smtp_reply)),
    RequestedBy: m.requested_by,
    CreatedAt: m.created_at,
    DueAt: m.due_at,
    LastAttemptAt: m.last_attempt_at,
    SentAt: m.sent_at,
  };
}
