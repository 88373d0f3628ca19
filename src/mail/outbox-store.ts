import { randomUUID } from 'node:crypto';
import type { CompiledQuery, ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Store } from '../db/database.js';
import { writeIfAny } from '../db/write-if-any.js';
import type { DB, MailMessageTable } from '../db/schema.js';
import type { AssessmentState } from './rules.js';

export type MailRow = Selectable<MailMessageTable>;

const now = () => new Date().toISOString();

/**
 * The statement that queues an assessment's invitation, to run in the commit that creates it: it
 * inserts nothing when the assessment was not created (no such candidate). With `portalDefault`
 * it queues only when the portal sends invitations by default.
 */
export function invitationQuery(db: Kysely<DB>, analysisId: string, portalDefault: boolean): CompiledQuery {
  const at = now();
  return db
    .insertInto('mail_messages')
    .columns(['id', 'tenant_id', 'analysis_id', 'kind', 'status', 'due_at', 'created_at', 'attempts'])
    .expression((eb) => {
      let q = eb
        .selectFrom('assessments as a')
        .select([
          eb.val(randomUUID()).as('id'),
          'a.tenant_id',
          'a.analysis_id',
          eb.val('invitation').as('kind'),
          eb.val('pending').as('status'),
          eb.val(at).as('due_at'),
          eb.val(at).as('created_at'),
          eb.lit(0).as('attempts'),
        ])
        .where('a.analysis_id', '=', analysisId);
      if (portalDefault)
        q = q.where((w) =>
          w.exists(
            w.selectFrom('portal_mail_settings as s').select('s.api_key_id').whereRef('s.api_key_id', '=', 'a.api_key_id').where('s.send_invitation', '=', 1),
          ),
        );
      return q;
    })
    .compile();
}

/** Everything a claimed message needs to be written and sent, read after the claim committed. */
export interface ClaimedMail extends AssessmentState {
  id: string;
  analysis_id: string;
  api_key_id: string;
  kind: MailRow['kind'];
  attempts: number;
  first_attempt_at: string | null;
  created_at: string;
  assessment_type: number;
  portal_domain: string;
  email: string | null;
  first_name: string | null;
  preposition: string | null;
  last_name: string | null;
}

/**
 * Moves up to `limit` due messages to 'sending' for `claimer`, and commits before any is sent. On
 * PostgreSQL, SKIP LOCKED lets several instances claim side by side: each message is claimed by
 * one of them only.
 */
export async function claimDue(store: Store, claimer: string, limit: number): Promise<ClaimedMail[]> {
  const at = now();
  const ids = await store.write(async (trx) => {
    let due = trx.selectFrom('mail_messages').select('id').where('status', '=', 'pending').where('due_at', '<=', at).orderBy('due_at').limit(limit);
    if (store.dialect === 'postgres') due = due.forUpdate().skipLocked();
    const found = (await due.execute()).map((r) => r.id);
    if (found.length === 0) return [];
    const claimed = await trx
      .updateTable('mail_messages')
      .set({ status: 'sending', claimed_at: at, claimed_by: claimer })
      .where('id', 'in', found)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    return claimed.map((c) => c.id);
  });
  if (ids.length === 0) return [];
  const rows = await store.db
    .selectFrom('mail_messages as m')
    .innerJoin('assessments as a', 'a.analysis_id', 'm.analysis_id')
    .leftJoin('candidates as c', 'c.external_id', 'a.external_id')
    .select(['m.id', 'm.analysis_id', 'm.kind', 'm.attempts', 'm.first_attempt_at', 'm.created_at'])
    .select(['a.api_key_id', 'a.status', 'a.expires_at', 'a.last_activity_at', 'a.assessment_type', 'a.portal_domain'])
    .select(['c.email', 'c.first_name', 'c.preposition', 'c.last_name'])
    .select((eb) =>
      eb
        .selectFrom('mail_messages as i')
        .select((f) => f.fn.max('i.sent_at').as('sent'))
        .whereRef('i.analysis_id', '=', 'm.analysis_id')
        .where('i.kind', '=', 'invitation')
        .as('invited_at'),
    )
    .where('m.id', 'in', ids)
    .where('m.claimed_by', '=', claimer)
    .where('m.status', '=', 'sending')
    .execute();
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), invited_at: (r.invited_at as string | null) ?? null }));
}

/** How a claimed message ended this time. */
export type Ending =
  | { kind: 'sent'; recipient: string; reply: string; next?: { reminderAfterSeconds: number; maxReminders: number } }
  | { kind: 'retry'; recipient: string | null; reply: string; dueAt: string }
  | { kind: 'failed'; recipient: string | null; reply: string; attempted: boolean }
  | { kind: 'cancelled'; why: string }
  | { kind: 'later'; dueAt: string };

/** Records the ending of a message `claimer` holds; a sent one schedules the next reminder if one is due. */
export async function finish(store: Store, row: Pick<ClaimedMail, 'id' | 'analysis_id' | 'first_attempt_at'>, claimer: string, e: Ending): Promise<void> {
  const at = now();
  const tried = { last_attempt_at: at, first_attempt_at: row.first_attempt_at ?? at };
  await store.write(async (trx) => {
    const mine = trx.updateTable('mail_messages').where('id', '=', row.id).where('claimed_by', '=', claimer).where('status', '=', 'sending');
    switch (e.kind) {
      case 'later':
        await mine.set({ status: 'pending', due_at: e.dueAt, claimed_by: null, claimed_at: null }).execute();
        return;
      case 'cancelled':
        await mine.set({ status: 'cancelled', smtp_reply: e.why }).execute();
        return;
      case 'retry':
        await mine
          .set((eb) => ({
            status: 'pending',
            due_at: e.dueAt,
            claimed_by: null,
            recipient: e.recipient,
            smtp_reply: e.reply,
            attempts: eb('attempts', '+', 1),
            ...tried,
          }))
          .execute();
        return;
      case 'failed':
        await mine
          .set((eb) => ({
            status: 'failed',
            recipient: e.recipient,
            smtp_reply: e.reply,
            ...(e.attempted ? { attempts: eb('attempts', '+', 1), ...tried } : {}),
          }))
          .execute();
        return;
      case 'sent': {
        const r = await mine
          .set((eb) => ({ status: 'sent', sent_at: at, recipient: e.recipient, smtp_reply: e.reply, attempts: eb('attempts', '+', 1), ...tried }))
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 1 && e.next) await scheduleReminder(trx, row.analysis_id, e.next.reminderAfterSeconds, e.next.maxReminders);
      }
    }
  });
}

/** Queues the next reminder `after` seconds from now, unless one waits or the portal's number has been sent. */
async function scheduleReminder(trx: Kysely<DB>, analysisId: string, after: number, max: number): Promise<void> {
  const rows = await trx.selectFrom('mail_messages').select(['kind', 'status', 'tenant_id']).where('analysis_id', '=', analysisId).execute();
  const reminders = rows.filter((r) => r.kind === 'reminder');
  if (reminders.some((r) => r.status === 'pending' || r.status === 'sending')) return;
  if (reminders.filter((r) => r.status === 'sent').length >= max) return;
  const at = now();
  await trx
    .insertInto('mail_messages')
    .values({
      id: randomUUID(),
      tenant_id: rows[0]!.tenant_id,
      analysis_id: analysisId,
      kind: 'reminder',
      requested_by: null,
      status: 'pending',
      due_at: new Date(Date.now() + after * 1000).toISOString(),
      created_at: at,
    })
    .execute();
}

/** At most this many invitations sent again per assessment per hour: a resend is a person's act, not a loop. */
export const RESENDS_PER_HOUR = 3;

export type Resend =
  | { outcome: 'queued'; id: string }
  | { outcome: 'not-found' }
  | { outcome: 'closed'; why: string }
  | { outcome: 'in-progress' }
  | { outcome: 'limited'; retryAfterSeconds: number };

/**
 * Queues the invitation once more, and cancels the reminder that waited: the resent invitation
 * schedules its own. Refused for an assessment that is over, while an invitation waits or is on
 * its way, and past RESENDS_PER_HOUR in an hour.
 */
export async function requestResend(store: Store, analysisId: string, tenantId: string, requestedBy: string): Promise<Resend> {
  return store.write(async (trx): Promise<Resend> => {
    let q = trx.selectFrom('assessments').select(['status', 'expires_at', 'tenant_id']).where('analysis_id', '=', analysisId).where('tenant_id', '=', tenantId);
    if (store.dialect === 'postgres') q = q.forUpdate();
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
    const hourAgo = Date.now() - 3_600_000;
    const recent = mails.filter((m) => m.requested_by !== null && Date.parse(m.created_at) > hourAgo).map((m) => Date.parse(m.created_at));
    if (recent.length >= RESENDS_PER_HOUR)
      return { outcome: 'limited', retryAfterSeconds: Math.max(1, Math.ceil((Math.min(...recent) + 3_600_000 - Date.now()) / 1000)) };
    await trx
      .updateTable('mail_messages')
      .set({ status: 'cancelled', smtp_reply: 'not sent: replaced by the invitation sent again on request' })
      .where('analysis_id', '=', analysisId)
      .where('kind', '=', 'reminder')
      .where('status', '=', 'pending')
      .execute();
    const id = randomUUID();
    const at = now();
    await trx
      .insertInto('mail_messages')
      .values({
        id,
        tenant_id: a.tenant_id,
        analysis_id: analysisId,
        kind: 'invitation',
        requested_by: requestedBy,
        status: 'pending',
        due_at: at,
        created_at: at,
      })
      .execute();
    return { outcome: 'queued', id };
  });
}

/** An assessment's messages, oldest first: its mail log. */
export function listMessages(store: Store, analysisId: string): Promise<MailRow[]> {
  return store.db.selectFrom('mail_messages').selectAll().where('analysis_id', '=', analysisId).orderBy('created_at').orderBy('id').execute();
}

/** Erasure: the messages of these assessments go, with every address and reply they held. */
export async function eraseMail(trx: Kysely<DB>, analysisIds: string[]): Promise<void> {
  await trx.deleteFrom('mail_messages').where('analysis_id', 'in', analysisIds).execute();
}

/**
 * Messages left 'sending' by a process that stopped mid-send go back to pending: a mail is sent
 * at least once. The SMTP server may have taken one just before the stop; then it goes twice.
 */
export async function releaseStale(store: Store, claimedBefore: string): Promise<number> {
  const stale = (eb: ExpressionBuilder<DB, 'mail_messages'>) => eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', claimedBefore)]);
  return writeIfAny(store, store.db.selectFrom('mail_messages').select('id').where(stale), async (trx) => {
    const r = await trx.updateTable('mail_messages').set({ status: 'pending', claimed_by: null, due_at: now() }).where(stale).executeTakeFirst();
    return Number(r.numUpdatedRows);
  });
}
