import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Store } from '../db/database.js';
import { read } from '../db/prepared.js';
import { writeIfAny } from '../db/write-if-any.js';
import type { DB, MailMessageTable } from '../db/schema.js';
import type { AssessmentState } from './rules.js';

export type MailRow = Selectable<MailMessageTable>;

const now = () => new Date().toISOString();

/** Everything a claimed message needs to be written and sent, read after the claim committed. */
export interface ClaimedMail extends AssessmentState {
  id: string;
  tenant_id: string;
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

/** A tenant with mail due: when its oldest became due, and how many are due (counted up to a cap). */
export interface DueTenant {
  tenantId: string;
  oldest: string;
  waiting: number;
}

/**
 * Tenants with mail due, in tenant id order, after `after` when given, at most `max`: a walk of
 * the (status, tenant_id, due_at) index with a few seeks a tenant, however long any one's
 * backlog is. A tenant whose pending mail is all later (reminders) is looked at but not returned.
 */
export async function dueTenants(store: Store, options: { after?: string | undefined; max: number; cap: number }): Promise<DueTenant[]> {
  const at = now();
  const first = options.after === undefined ? sql`` : sql`and tenant_id > ${options.after}`;
  const rows = await read(
    store,
    sql<{ tenant_id: string; oldest: string | null; waiting: number | string }>`
    with recursive t(tenant_id, n) as (
      select (select min(tenant_id) from mail_messages where status = 'pending' ${first}), 1
      union all
      select (select min(m.tenant_id) from mail_messages m where m.status = 'pending' and m.tenant_id > t.tenant_id), t.n + 1
      from t where t.tenant_id is not null and t.n < ${options.max}
    )
    select t.tenant_id,
      (select min(m.due_at) from mail_messages m where m.status = 'pending' and m.tenant_id = t.tenant_id) as oldest,
      (select count(*) from (
        select 1 from mail_messages m where m.status = 'pending' and m.tenant_id = t.tenant_id and m.due_at <= ${at} order by m.due_at limit ${options.cap}
      ) as c) as waiting
    from t where t.tenant_id is not null`,
  );
  return rows.flatMap((r) => (r.oldest === null || Number(r.waiting) === 0 ? [] : [{ tenantId: r.tenant_id, oldest: r.oldest, waiting: Number(r.waiting) }]));
}

/**
 * Moves each tenant's oldest due messages to 'sending' for `claimer`, up to its `limit`, and
 * commits before any is sent. On PostgreSQL, SKIP LOCKED lets several instances claim side by
 * side: each message is claimed by one of them only.
 */
export async function claimDue(store: Store, claimer: string, wants: ReadonlyArray<{ tenantId: string; limit: number }>): Promise<ClaimedMail[]> {
  const at = now();
  const ids = await store.write(async (trx) => {
    const found: string[] = [];
    for (const { tenantId, limit } of wants) {
      let due = trx
        .selectFrom('mail_messages')
        .select('id')
        .where('status', '=', 'pending')
        .where('tenant_id', '=', tenantId)
        .where('due_at', '<=', at)
        .orderBy('due_at')
        .limit(limit);
      if (store.dialect === 'postgres') due = due.forUpdate().skipLocked();
      found.push(...(await due.execute()).map((r) => r.id));
    }
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
    .select(['m.id', 'm.tenant_id', 'm.analysis_id', 'm.kind', 'm.attempts', 'm.first_attempt_at', 'm.created_at'])
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

/** Whether `claimer` still holds the message: read right before the envelope, so an erased one is not sent. */
export async function stillClaimed(store: Store, id: string, claimer: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('mail_messages')
    .select('id')
    .where('id', '=', id)
    .where('claimed_by', '=', claimer)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return row !== undefined;
}

/** How a claimed message ended this time. */
export type Ending =
  | { kind: 'sent'; recipient: string; reply: string; next?: { reminderAfterSeconds: number; maxReminders: number } }
  | { kind: 'retry'; recipient: string | null; reply: string; dueAt: string }
  | { kind: 'failed'; recipient: string | null; reply: string; attempted: boolean }
  | { kind: 'cancelled'; why: string }
  | { kind: 'later'; dueAt: string }
  // Dropped unsent because its row is gone (erased) or no longer this claimer's: nothing to record.
  | { kind: 'withdrawn' };

/** Records the ending of a message `claimer` holds; a sent one schedules the next reminder if one is due. */
export async function finish(store: Store, row: Pick<ClaimedMail, 'id' | 'analysis_id' | 'first_attempt_at'>, claimer: string, e: Ending): Promise<void> {
  if (e.kind === 'withdrawn') return;
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
