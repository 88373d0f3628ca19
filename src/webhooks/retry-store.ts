import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Store } from '../db/database.js';
import { writeIfAny } from '../db/write-if-any.js';
import type { DB } from '../db/schema.js';
import { nextAttemptAt } from './retry.js';

const now = () => new Date().toISOString();

/**
 * After a failed or unknown attempt of an assessment whose completion call is retried (style
 * 'patch'), schedules the next one in the same transaction, unless the retry window has passed.
 * One row a retry: the delivery log shows every attempt. A release's PATCH, which may come days
 * after completion, is a chain of its own: counted from the latest release, its retries of its kind.
 */
export async function scheduleRetry(trx: Kysely<DB>, attemptId: string, baseMs: number): Promise<void> {
  const row = await trx
    .selectFrom('webhook_attempts as w')
    .innerJoin('assessments as a', 'a.analysis_id', 'w.analysis_id')
    .select(['w.analysis_id', 'w.tenant_id', 'w.kind', 'a.webhook_style'])
    .where('w.id', '=', attemptId)
    .executeTakeFirst();
  if (row?.webhook_style !== 'patch') return;
  const release = row.kind === 'release';
  // A queued attempt has no due_at; a scheduled retry has one.
  const released = release
    ? await trx
        .selectFrom('webhook_attempts')
        .select((eb) => eb.fn.max('created_at').as('at'))
        .where('analysis_id', '=', row.analysis_id)
        .where('kind', '=', 'release')
        .where('due_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  let attempts = trx.selectFrom('webhook_attempts').where('analysis_id', '=', row.analysis_id);
  attempts = release ? attempts.where('kind', '=', 'release').where('created_at', '>=', String(released?.at)) : attempts.where('kind', '!=', 'release');
  const chain = await attempts.select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('first')]).executeTakeFirstOrThrow();
  const due = nextAttemptAt(Number(chain.n), String(chain.first), Date.now(), baseMs);
  if (!due) return;
  await trx
    .insertInto('webhook_attempts')
    .values({
      id: randomUUID(),
      analysis_id: row.analysis_id,
      tenant_id: row.tenant_id,
      kind: release ? 'release' : 'automatic',
      requested_by: null,
      status: 'scheduled',
      created_at: now(),
      due_at: due,
      claimed_at: null,
      claimed_by: null,
      attempted_at: null,
      duration_ms: null,
      response_status: null,
      error: null,
    })
    .execute();
}

/**
 * Scheduled retries whose time has come become pending, queued as of now, for the usual claim.
 * A read first, so an outbox with nothing due costs no write. Two instances doing this at once
 * change the same rows to the same values; the claim still takes each attempt once.
 */
export async function promoteDue(store: Store): Promise<number> {
  const at = now();
  const due = (eb: ExpressionBuilder<DB, 'webhook_attempts'>) => eb.and([eb('status', '=', 'scheduled'), eb('due_at', '<=', at)]);
  return writeIfAny(store, store.db.selectFrom('webhook_attempts').select('id').where(due), async (trx) => {
    const r = await trx.updateTable('webhook_attempts').set({ status: 'pending', created_at: at }).where(due).executeTakeFirst();
    return Number(r.numUpdatedRows);
  });
}
