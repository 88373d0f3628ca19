import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Store } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { insertAssessmentIn, type NewAssessment } from '../assessments/assessments-store.js';
import { addressKey, type Capped, type MailCaps } from './rules.js';
import { mailSettingsIn } from './settings-store.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
// The advisory locks' first key: mail queuing, with the tenant's id hashed as the second.
const LOCK_SPACE = 0x6d61696c;

/**
 * Whether one more invitation of `tenantId` to `address` would pass a cap, counted from the mail
 * outbox inside the queuing transaction, so the caps hold across instances. On PostgreSQL the
 * tenant's queuing is serialised first (an advisory lock held to the commit): two instances can
 * then never both count one under a cap. On SQLite the one writer serialises every write.
 */
async function capped(trx: Kysely<DB>, dialect: Store['dialect'], tenantId: string, address: string, caps: MailCaps): Promise<Capped | undefined> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_SPACE)}, hashtext(${tenantId}))`.execute(trx);
  const now = Date.now();
  const since = (ms: number) => new Date(now - ms).toISOString();
  const ours = trx.selectFrom('mail_messages').select('created_at').where('tenant_id', '=', tenantId).where('kind', '=', 'invitation');
  const toAddress = await ours
    .where('address_key', '=', address)
    .where('created_at', '>', since(HOUR_MS))
    .orderBy('created_at', 'desc')
    .limit(caps.perRecipientPerHour)
    .execute();
  const full = fullWindow(toAddress, caps.perRecipientPerHour, HOUR_MS, now);
  if (full !== undefined) return { cap: 'recipient', limit: caps.perRecipientPerHour, retryAfterSeconds: full };
  const byTenant = await ours.where('created_at', '>', since(MINUTE_MS)).orderBy('created_at', 'desc').limit(caps.perTenantPerMinute).execute();
  const tenantFull = fullWindow(byTenant, caps.perTenantPerMinute, MINUTE_MS, now);
  if (tenantFull !== undefined) return { cap: 'tenant', limit: caps.perTenantPerMinute, retryAfterSeconds: tenantFull };
  return undefined;
}

/** With the window's newest rows (newest first, at most `limit`): seconds until one more fits, or undefined when it fits now. */
function fullWindow(newest: ReadonlyArray<{ created_at: string }>, limit: number, windowMs: number, now: number): number | undefined {
  if (newest.length < limit) return undefined;
  return Math.max(1, Math.ceil((Date.parse(newest[limit - 1]!.created_at) + windowMs - now) / 1000));
}

async function queueInvitation(trx: Kysely<DB>, m: { tenantId: string; analysisId: string; address: string; requestedBy: string | null }): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await trx
    .insertInto('mail_messages')
    .values({
      id,
      tenant_id: m.tenantId,
      analysis_id: m.analysisId,
      kind: 'invitation',
      requested_by: m.requestedBy,
      status: 'pending',
      due_at: at,
      created_at: at,
      address_key: m.address,
    })
    .execute();
  return id;
}

/**
 * Creates the assessment and queues its invitation in one commit. With `portalDefault` the
 * invitation is queued only when the portal sends one by default. Past a cap nothing is written
 * (no assessment either): the caller answers 429 and may send the same request again later.
 */
export async function insertWithInvitation(
  store: Store,
  row: NewAssessment,
  options: { portalDefault: boolean; caps: MailCaps },
): Promise<'created' | 'no-candidate' | Capped> {
  return store.write(async (trx) => {
    const candidate = await trx
      .selectFrom('candidates')
      .select('email')
      .where('external_id', '=', row.external_id)
      .where('tenant_id', '=', row.tenant_id)
      .executeTakeFirst();
    if (!candidate) return 'no-candidate';
    const wanted = !options.portalDefault || (await mailSettingsIn(trx, row.api_key_id)).send_invitation === 1;
    const address = addressKey(candidate.email);
    if (wanted) {
      const over = await capped(trx, store.dialect, row.tenant_id, address, options.caps);
      if (over) return over;
    }
    const created = await insertAssessmentIn(trx, store.dialect, row);
    if (created === 'created' && wanted) await queueInvitation(trx, { tenantId: row.tenant_id, analysisId: row.analysis_id, address, requestedBy: null });
    return created;
  });
}

/** At most this many invitations sent again per assessment per hour: a resend is a person's act, not a loop. */
export const RESENDS_PER_HOUR = 3;

export type Resend =
  | { outcome: 'queued'; id: string }
  | { outcome: 'not-found' }
  | { outcome: 'closed'; why: string }
  | { outcome: 'in-progress' }
  | { outcome: 'limited'; retryAfterSeconds: number }
  | ({ outcome: 'capped' } & Capped);

/**
 * Queues the invitation once more, and cancels the reminder that waited: the resent invitation
 * schedules its own. Refused for an assessment that is over, while an invitation waits or is on
 * its way, past RESENDS_PER_HOUR in an hour, and past the caps.
 */
export async function requestResend(store: Store, analysisId: string, tenantId: string, requestedBy: string, caps: MailCaps): Promise<Resend> {
  return store.write(async (trx): Promise<Resend> => {
    let q = trx
      .selectFrom('assessments as a')
      .innerJoin('candidates as c', 'c.external_id', 'a.external_id')
      .select(['a.status', 'a.expires_at', 'a.tenant_id', 'c.email'])
      .where('a.analysis_id', '=', analysisId)
      .where('a.tenant_id', '=', tenantId);
    if (store.dialect === 'postgres') q = q.forUpdate('a');
    const a = await q.executeTakeFirst();
    if (!a) return { outcome: 'not-found' };
    if (a.status === 'Completed' || a.status === 'Cancelled') return { outcome: 'closed', why: `The assessment is ${a.status.toLowerCase()}` };
    if (a.expires_at !== null && Date.parse(a.expires_at) <= Date.now()) return { outcome: 'closed', why: 'The assessment has expired' };
    const mails = await trx
      .selectFrom('mail_messages')
      .select(['kind', 'status', 'requested_by', 'created_at'])
      .where('analysis_id', '=', analysisId)
      .execute();
    if (mails.some((m) => m.kind === 'invitation' && (m.status === 'pending' || m.status === 'sending'))) return { outcome: 'in-progress' };
    const hourAgo = Date.now() - HOUR_MS;
    const recent = mails.filter((m) => m.requested_by !== null && Date.parse(m.created_at) > hourAgo).map((m) => Date.parse(m.created_at));
    if (recent.length >= RESENDS_PER_HOUR)
      return { outcome: 'limited', retryAfterSeconds: Math.max(1, Math.ceil((Math.min(...recent) + HOUR_MS - Date.now()) / 1000)) };
    const address = addressKey(a.email);
    const over = await capped(trx, store.dialect, a.tenant_id, address, caps);
    if (over) return { outcome: 'capped', ...over };
    await trx
      .updateTable('mail_messages')
      .set({ status: 'cancelled', smtp_reply: 'not sent: replaced by the invitation sent again on request' })
      .where('analysis_id', '=', analysisId)
      .where('kind', '=', 'reminder')
      .where('status', '=', 'pending')
      .execute();
    return { outcome: 'queued', id: await queueInvitation(trx, { tenantId: a.tenant_id, analysisId, address, requestedBy }) };
  });
}
