/** The mail room's rules, pure: durations, retries, caps, what may be sent, what an address may hold, and what a tenant sees of a failure. */
import { DomainError } from '../domain/errors.js';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/** `5s`, `30m`, `48h`, `7d` in seconds; undefined when it is not such a duration. At most 365 days. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d{1,7})\s*([smhd])\s*$/i.exec(text);
  if (!m) return undefined;
  const seconds = Number(m[1]) * UNITS[m[2]!.toLowerCase()]!;
  return seconds >= 1 && seconds <= 365 * 86_400 ? seconds : undefined;
}

/** In the largest unit that says `seconds` exactly: 172800 is `2d`, 5400 is `90m`. */
export function formatDuration(seconds: number): string {
  for (const unit of ['d', 'h', 'm'] as const) if (seconds % UNITS[unit]! === 0) return `${seconds / UNITS[unit]!}${unit}`;
  return `${seconds}s`;
}

/** The delay before try `attempts + 1` after a transient failure: base, doubling, at most an hour. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(3_600_000, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/** What an SMTP exchange ended in. A 5xx is permanent; a 4xx, a refused connection or a timeout passes. */
export type Outcome = { kind: 'sent'; reply: string } | { kind: 'transient'; reply: string } | { kind: 'permanent'; reply: string };

export function classify(err: { responseCode?: number; response?: string; code?: string; message?: string }): Outcome {
  const reply = (err.response ?? err.message ?? err.code ?? 'unknown error').slice(0, 500);
  if (typeof err.responseCode === 'number' && err.responseCode >= 500) return { kind: 'permanent', reply };
  return { kind: 'transient', reply };
}

/**
 * What a tenant reads of a failure that was Assay's own (connection refused, a timeout, DNS, TLS):
 * the relay is the operator's, and its address, port or certificate names are this network's, not
 * the tenant's to see. The operator's log keeps the detail.
 */
export const RELAY_NOT_REACHED = 'no reply from the mail server (a network, DNS, TLS or timeout failure); the operator has the details';

/** A reply the relay itself gave: an SMTP code first. */
export const isRelayReply = (reply: string) => /^[2-5]\d\d(?:[ -]|$)/.test(reply);

const GIVEN_UP = 'given up after retrying: ';

/**
 * A stored reply as a tenant may read it: the relay's own replies and Assay's reasons ("not
 * sent: …") as they are, anything else (a network error's text) generalised.
 */
export function tenantReply(reply: string): string {
  if (reply.startsWith(GIVEN_UP)) return GIVEN_UP + tenantReply(reply.slice(GIVEN_UP.length));
  return isRelayReply(reply) || reply.startsWith('not sent: ') ? reply : RELAY_NOT_REACHED;
}

export const givenUp = (reply: string) => `${GIVEN_UP}${reply}`.slice(0, 500);

/** How much mail a tenant may queue: invitations to one address an hour, and in all a minute. */
export interface MailCaps {
  perRecipientPerHour: number;
  perTenantPerMinute: number;
}

/** A cap an invitation would pass: nothing was queued. */
export interface Capped {
  cap: 'recipient' | 'tenant';
  limit: number;
  retryAfterSeconds: number;
}

/** The address as the cap per recipient counts it: one mailbox, however its letters are cased. */
export const addressKey = (email: string) => email.toLowerCase();

/** The 429 for a cap: what was refused, the limit, and when to try again (Retry-After). */
export function cappedError(c: Capped): DomainError {
  const message =
    c.cap === 'recipient'
      ? `At most ${c.limit} invitations an hour to one e-mail address; nothing was created or queued, retry in ${c.retryAfterSeconds} s`
      : `At most ${c.limit} invitations a minute per tenant; nothing was created or queued, retry in ${c.retryAfterSeconds} s`;
  return new DomainError('TooManyRequests', message, {
    retryAfterSeconds: c.retryAfterSeconds,
    limit: c.cap === 'recipient' ? 'mailPerRecipient' : 'mailPerTenant',
  });
}

export interface AssessmentState {
  status: 'Created' | 'Started' | 'Completed' | 'Cancelled';
  expires_at: string | null;
  invited_at: string | null;
  last_activity_at: string | null;
}

/**
 * Whether a claimed message goes now. Nothing goes to an assessment that is over (completed,
 * cancelled, expired); a reminder waits until the delay has passed since the invitation (not
 * started) or the candidate's last activity (unfinished).
 */
export function decide(
  kind: 'invitation' | 'reminder',
  a: AssessmentState,
  reminderAfterSeconds: number | null,
  now: number,
): { send: true } | { send: false; why: string } | { later: string } {
  if (a.status === 'Completed') return { send: false, why: 'not sent: the assessment is completed' };
  if (a.status === 'Cancelled') return { send: false, why: 'not sent: the assessment was cancelled' };
  if (a.expires_at !== null && Date.parse(a.expires_at) <= now) return { send: false, why: 'not sent: the assessment expired' };
  if (kind === 'invitation') return { send: true };
  if (reminderAfterSeconds === null) return { send: false, why: 'not sent: the portal no longer sends reminders' };
  const from = a.status === 'Started' && a.last_activity_at ? a.last_activity_at : a.invited_at;
  if (from === null) return { send: true };
  const due = Date.parse(from) + reminderAfterSeconds * 1000;
  return due > now ? { later: new Date(due).toISOString() } : { send: true };
}

/** `a***@example.com`: the first character and the domain. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/** Every address in a text (an SMTP reply may quote the recipient), masked. */
export function maskAddressesIn(text: string): string {
  return text.replace(/[^\s<>"'@:;,()]+@[^\s<>"'@:;,()]+/g, (m) => maskAddress(m));
}

// Any control character, DEL and the line and paragraph separators: none belongs in a header.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A display name or subject fit for a header: controls become spaces, runs of space one. */
export function headerText(text: string, max = 200): string {
  return text.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

/**
 * One plain address, or undefined: no display name, comment, group, second address or control
 * character, so it can only ever name one recipient.
 */
export function singleAddress(address: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  return /^[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z0-9-]{2,63}$/.test(address) ? address : undefined;
}

export const NO_SMTP = 'This server sends no e-mail: SMTP_URL is not set';
