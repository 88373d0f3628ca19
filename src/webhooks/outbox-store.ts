import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Store } from '../db/database.js';
import { read } from '../db/prepared.js';
import { writeIfAny } from '../db/write-if-any.js';
import type { AssessmentTable, DB, WebhookAttemptTable } from '../db/schema.js';
import { scheduleRetry } from './retry-store.js';

export interface ClaimedAttempt {
  id: string;
  tenant_id: string;
  kind: AttemptRow['kind'];
  /** When it was queued: the delivery-latency metric counts from here. */
  created_at: string;
  analysis_id: string;
  external_id: string;
  api_key_id: string;
  webhook_url: string;
  webhook_username: string | null;
  webhook_password_enc: string | null;
  webhook_username_enc: string | null;
  webhook_style: AssessmentTable['webhook_style'];
  /** The portal's signing setting and sealed secrets, read with the claim (null: the portal has no settings). */
  webhook_signing: number | null;
  webhook_secret_enc: string | null;
  webhook_secret_previous_enc: string | null;
  webhook_secret_previous_until: string | null;
}

export type AttemptRow = WebhookAttemptTable;

const now = () => new Date().toISOString();

/** PostgreSQL NOTIFY channel that wakes every instance's dispatcher after an attempt is queued. */
export const NOTIFY_CHANNEL = 'assay_webhooks';

/**
 * Queues one attempt in the caller's transaction; on PostgreSQL every dispatcher hears of it at
 * commit. With `claimer` the attempt is queued already claimed by that dispatcher, which sends
 * it once the transaction commits: the claim needs no commit of its own, and no one else is told.
 */
export async function queueAttempt(
  trx: Kysely<DB>,
  dialect: Store['dialect'],
  analysisId: string,
  tenantId: string,
  kind: AttemptRow['kind'],
  requestedBy: string | null,
  claimer?: string,
): Promise<string> {
  const id = randomUUID();
  const at = now();
  await trx
    .insertInto('webhook_attempts')
    .values({
      id,
      analysis_id: analysisId,
      tenant_id: tenantId,
      kind,
      requested_by: requestedBy,
      status: claimer ? 'sending' : 'pending',
      created_at: at,
      claimed_at: claimer ? at : null,
      claimed_by: claimer ?? null,
      attempted_at: null,
      duration_ms: null,
      response_status: null,
      error: null,
    })
    .execute();
  if (dialect === 'postgres' && !claimer) await sql`select pg_notify(${NOTIFY_CHANNEL}, '')`.execute(trx);
  return id;
}

/** A tenant with webhook attempts pending: when its oldest was queued, and how many wait (counted up to a cap). */
export interface WaitingTenant {
  tenantId: string;
  oldest: string;
  waiting: number;
}

/** At most this many tenants are looked at per walk; the next walk goes on from the last one. */
export const TENANTS_PER_WALK = 256;

export interface WalkOptions {
  /** Start after this tenant id; from the first when undefined. */
  after?: string | undefined;
  max?: number;
  /** Count each tenant's waiting attempts up to this many. */
  cap: number;
}

/**
 * Tenants with attempts pending, in tenant id order: a walk of the (status, tenant_id,
 * created_at) index with a few seeks a tenant (the next tenant, its oldest attempt, and up to
 * `cap` entries to count), however long any tenant's backlog is.
 */
export async function pendingTenants(store: Store, options: WalkOptions): Promise<WaitingTenant[]> {
  const rows = await read(store, pendingTenantsQuery(options));
  // A tenant's attempts may all have been claimed between the seeks: nothing waits.
  return rows.flatMap((r) => (r.oldest === null || Number(r.waiting) === 0 ? [] : [{ tenantId: r.tenant_id, oldest: r.oldest, waiting: Number(r.waiting) }]));
}

export function pendingTenantsQuery({ after, max = TENANTS_PER_WALK, cap }: WalkOptions) {
  const first = after === undefined ? sql`` : sql`and tenant_id > ${after}`;
  return sql<{ tenant_id: string; oldest: string | null; waiting: number | string }>`
    with recursive t(tenant_id, n) as (
      select (select min(tenant_id) from webhook_attempts where status = 'pending' ${first}), 1
      union all
      select (select min(w.tenant_id) from webhook_attempts w where w.status = 'pending' and w.tenant_id > t.tenant_id), t.n + 1
      from t where t.tenant_id is not null and t.n < ${max}
    )
    select t.tenant_id,
      (select min(w.created_at) from webhook_attempts w where w.status = 'pending' and w.tenant_id = t.tenant_id) as oldest,
      (select count(*) from (
        -- In the index's order, so PostgreSQL reads at most cap entries of it rather than the table.
        select 1 from webhook_attempts w where w.status = 'pending' and w.tenant_id = t.tenant_id order by w.created_at limit ${cap}
      ) as c) as waiting
    from t where t.tenant_id is not null`;
}

/** A tenant's oldest pending attempts, read in the index's order, in the caller's transaction. */
export function oldestPending(trx: Kysely<DB>, tenantId: string, limit: number) {
  return trx.selectFrom('webhook_attempts').select('id').where('status', '=', 'pending').where('tenant_id', '=', tenantId).orderBy('created_at').limit(limit);
}

/**
 * Moves pending attempts to 'sending' for `claimer`, up to each tenant's `limit`, and commits
 * before any is sent: an attempt is claimed once, so it is made at most once, whatever crashes
 * later. On PostgreSQL, SKIP LOCKED lets several instances claim side by side without waiting:
 * each takes the tenant's oldest rows that no other is claiming.
 */
export async function claimAttempts(store: Store, claimer: string, wants: ReadonlyArray<{ tenantId: string; limit: number }>): Promise<ClaimedAttempt[]> {
  const asked = wants.filter((w) => w.limit > 0);
  if (asked.length === 0) return [];
  return store.write(async (trx) => {
    const ids: string[] = [];
    for (const { tenantId, limit } of asked) {
      let pending = oldestPending(trx, tenantId, limit);
      if (store.dialect === 'postgres') pending = pending.forUpdate().skipLocked();
      ids.push(...(await pending.execute()).map((r) => r.id));
    }
    if (ids.length === 0) return [];
    const claimed = await trx
      .updateTable('webhook_attempts')
      .set({ status: 'sending', claimed_at: now(), claimed_by: claimer })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    if (claimed.length === 0) return [];
    return claimedIn(
      trx,
      claimer,
      claimed.map((c) => c.id),
    );
  });
}

/** What sending needs of attempts `claimer` holds: the assessment's webhook and its portal's signing secrets. */
export function claimedRows(store: Store, claimer: string, ids: string[]): Promise<ClaimedAttempt[]> {
  return claimedIn(store.db, claimer, ids);
}

function claimedIn(db: Kysely<DB>, claimer: string, ids: string[]): Promise<ClaimedAttempt[]> {
  return db
    .selectFrom('webhook_attempts as w')
    .innerJoin('assessments as a', 'a.analysis_id', 'w.analysis_id')
    .leftJoin('portal_settings as p', 'p.api_key_id', 'a.api_key_id')
    .select([
      'w.id',
      'w.tenant_id',
      'w.kind',
      'w.created_at',
      'w.analysis_id',
      'a.external_id',
      'a.api_key_id',
      'a.webhook_url',
      'a.webhook_username',
      'a.webhook_password_enc',
      'a.webhook_username_enc',
      'a.webhook_style',
    ])
    .select(['p.webhook_signing', 'p.webhook_secret_enc', 'p.webhook_secret_previous_enc', 'p.webhook_secret_previous_until'])
    .where('w.id', 'in', ids)
    .where('w.status', '=', 'sending')
    .where('w.claimed_by', '=', claimer)
    .execute() as Promise<ClaimedAttempt[]>;
}

export interface AttemptRecord {
  attemptedAt: string;
  durationMs: number;
  status: number | null;
  error: string | null;
}

/** A 2xx answer delivers; anything else, or no answer, fails. */
export const isDelivered = (a: Pick<AttemptRecord, 'status'>) => a.status !== null && a.status >= 200 && a.status < 300;

/** Records the outcome; a failure of a retried completion call (style 'patch') schedules the next attempt with it. */
export async function recordAttempt(store: Store, attemptId: string, claimer: string, a: AttemptRecord, retryBaseMs: number): Promise<void> {
  const ok = isDelivered(a);
  await store.write(async (trx) => {
    const recorded = await trx
      .updateTable('webhook_attempts')
      .set({
        status: ok ? 'delivered' : 'failed',
        attempted_at: a.attemptedAt,
        duration_ms: a.durationMs,
        response_status: a.status,
        error: a.error?.slice(0, 500) ?? null,
      })
      .where('id', '=', attemptId)
      .where('claimed_by', '=', claimer)
      .executeTakeFirst();
    if (!ok && Number(recorded.numUpdatedRows) === 1) await scheduleRetry(trx, attemptId, retryBaseMs);
  });
}

/**
 * Attempts left in 'sending' by a process that died mid-attempt. A webhook is never sent again:
 * whether the receiver got the POST is unknown, and one attempt is the rule; an operator may
 * redeliver on purpose. A retried completion call (style 'patch') gets its next attempt scheduled.
 */
export async function markAbandoned(store: Store, claimedBefore: string, retryBaseMs: number): Promise<number> {
  const stale = (eb: ExpressionBuilder<DB, 'webhook_attempts'>) => eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', claimedBefore)]);
  return writeIfAny(store, store.db.selectFrom('webhook_attempts').select('id').where(stale), async (trx) => {
    const ids = (await trx.selectFrom('webhook_attempts').select('id').where(stale).execute()).map((r) => r.id);
    if (ids.length === 0) return 0;
    await trx
      .updateTable('webhook_attempts')
      .set({ status: 'unknown', error: 'The process sending this webhook stopped mid-attempt; the outcome is unknown' })
      .where('id', 'in', ids)
      .execute();
    for (const id of ids) await scheduleRetry(trx, id, retryBaseMs);
    return ids.length;
  });
}

/** At most this many manual attempts per assessment per hour: redelivery is an operator's act, not a loop. */
export const REDELIVERIES_PER_HOUR = 5;

export type Redelivery =
  | { outcome: 'queued'; attemptId: string }
  | { outcome: 'not-found' }
  | { outcome: 'not-completed' }
  | { outcome: 'no-webhook' }
  | { outcome: 'in-progress' }
  | { outcome: 'limited'; retryAfterSeconds: number };

/**
 * Queues one more attempt of a completed assessment's webhook, with the same body. Refused while
 * an attempt waits or is on its way, and past REDELIVERIES_PER_HOUR manual attempts in an hour.
 */
export async function requestRedelivery(store: Store, analysisId: string, requestedBy: string, tenantId?: string): Promise<Redelivery> {
  return store.write(async (trx): Promise<Redelivery> => {
    let q = trx.selectFrom('assessments').select(['status', 'webhook_url', 'tenant_id']).where('analysis_id', '=', analysisId);
    if (tenantId) q = q.where('tenant_id', '=', tenantId);
    const row = await q.executeTakeFirst();
    if (!row) return { outcome: 'not-found' };
    if (row.status !== 'Completed') return { outcome: 'not-completed' };
    if (!row.webhook_url) return { outcome: 'no-webhook' };
    const attempts = await trx.selectFrom('webhook_attempts').select(['status', 'kind', 'created_at']).where('analysis_id', '=', analysisId).execute();
    if (attempts.some((a) => a.status === 'scheduled' || a.status === 'pending' || a.status === 'sending')) return { outcome: 'in-progress' };
    const hourAgo = Date.now() - 3_600_000;
    const recent = attempts.filter((a) => a.kind === 'manual' && Date.parse(a.created_at) > hourAgo).map((a) => Date.parse(a.created_at));
    if (recent.length >= REDELIVERIES_PER_HOUR) {
      return { outcome: 'limited', retryAfterSeconds: Math.max(1, Math.ceil((Math.min(...recent) + 3_600_000 - Date.now()) / 1000)) };
    }
    return { outcome: 'queued', attemptId: await queueAttempt(trx, store.dialect, analysisId, row.tenant_id, 'manual', requestedBy) };
  });
}
