import type { Store } from './database.js';

export interface ClaimedDelivery {
  analysis_id: string;
  external_id: string;
  webhook_url: string;
  webhook_username: string | null;
  webhook_password_enc: string | null;
}

const now = () => new Date().toISOString();

/** PostgreSQL NOTIFY channel that wakes every instance's dispatcher after a completion commits. */
export const NOTIFY_CHANNEL = 'assay_webhooks';

/**
 * Moves up to `limit` pending deliveries to 'sending' for `claimer` and commits before any is
 * sent: a row is claimed once, so it is attempted at most once, whatever crashes later.
 * On PostgreSQL, SKIP LOCKED lets several instances claim side by side without waiting.
 */
export async function claimDeliveries(store: Store, claimer: string, limit: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  // The poll runs every second: a read first, so an idle outbox costs no commit and no fsync.
  const any = await store.db.selectFrom('webhook_deliveries').select('analysis_id').where('status', '=', 'pending').limit(1).executeTakeFirst();
  if (!any) return [];
  return store.write(async (trx) => {
    let pending = trx.selectFrom('webhook_deliveries').select('analysis_id').where('status', '=', 'pending').orderBy('created_at').limit(limit);
    if (store.dialect === 'postgres') pending = pending.forUpdate().skipLocked();
    const claimed = await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'sending', claimed_at: now(), claimed_by: claimer })
      .where('analysis_id', 'in', pending)
      .where('status', '=', 'pending')
      .returning('analysis_id')
      .execute();
    if (claimed.length === 0) return [];
    return trx
      .selectFrom('assessments')
      .select(['analysis_id', 'external_id', 'webhook_url', 'webhook_username', 'webhook_password_enc'])
      .where('analysis_id', 'in', claimed.map((c) => c.analysis_id))
      .execute() as Promise<ClaimedDelivery[]>;
  });
}

export interface AttemptRecord {
  attemptedAt: string;
  durationMs: number;
  status: number | null;
  error: string | null;
}

export async function recordAttempt(store: Store, analysisId: string, claimer: string, a: AttemptRecord): Promise<void> {
  const ok = a.status !== null && a.status >= 200 && a.status < 300;
  await store.write((trx) =>
    trx
      .updateTable('webhook_deliveries')
      .set({
        status: ok ? 'delivered' : 'failed',
        attempted_at: a.attemptedAt,
        duration_ms: a.durationMs,
        response_status: a.status,
        error: a.error?.slice(0, 500) ?? null,
      })
      .where('analysis_id', '=', analysisId)
      .where('claimed_by', '=', claimer)
      .execute(),
  );
}

/**
 * Rows left in 'sending' by a process that died mid-attempt. They are never sent again:
 * whether the receiver got the POST is unknown, and one attempt is the rule.
 */
export async function markAbandoned(store: Store, claimedBefore: string): Promise<number> {
  const stale = await store.db
    .selectFrom('webhook_deliveries')
    .select('analysis_id')
    .where('status', '=', 'sending')
    .where('claimed_at', '<', claimedBefore)
    .limit(1)
    .executeTakeFirst();
  if (!stale) return 0;
  const result = await store.write((trx) =>
    trx
      .updateTable('webhook_deliveries')
      .set({ status: 'unknown', error: 'The process sending this webhook stopped mid-attempt; the outcome is unknown and it is not retried' })
      .where('status', '=', 'sending')
      .where('claimed_at', '<', claimedBefore)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows);
}

export async function findDelivery(store: Store, analysisId: string) {
  return store.db.selectFrom('webhook_deliveries').selectAll().where('analysis_id', '=', analysisId).executeTakeFirst();
}

