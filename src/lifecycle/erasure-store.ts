import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { retentionDue } from './rules.js';
import type { Store } from '../db/database.js';
import type { DB, ErasureTable } from '../db/schema.js';
import { eraseMail } from '../mail/outbox-store.js';
import { sendsInFlight } from '../mail/sends.js';
import { eraseKeysOf } from '../idempotency/keys-store.js';

export interface Erased {
  assessments: number;
  answers: number;
}

/**
 * Removes a candidate and everything about them: their fields, every assessment with its answers,
 * page times, scores, report nonce (so share links die) and webhook credentials, the webhook
 * outcomes, and the mail log with every address it held. An audit row keeps when, by whom and how much, with no personal data. Mail this
 * process has on its way to the candidate is stopped, or waited for once past its last check, so
 * nothing more is sent after this returns (src/mail/sends.ts). The ExternalId
 * is free to use again. `due`, when given, is checked again inside the transaction (the retention
 * sweep), so an instance that lost the race erases nothing.
 */
export async function eraseCandidate(
  store: Store,
  externalId: string,
  by: { tenantId?: string; erasedBy: string; reason: ErasureTable['reason'] },
  due?: (trx: Kysely<DB>, candidate: { created_at: string }, externalId: string) => Promise<boolean>,
): Promise<Erased | undefined> {
  const erased = await store.write(async (trx) => {
    let q = trx.selectFrom('candidates').select(['tenant_id', 'created_at']).where('external_id', '=', externalId);
    if (by.tenantId) q = q.where('tenant_id', '=', by.tenantId);
    // PostgreSQL: a second eraser of the same candidate waits here, then finds nothing.
    if (store.dialect === 'postgres') q = q.forUpdate();
    const candidate = await q.executeTakeFirst();
    if (!candidate || (due && !(await due(trx, candidate, externalId)))) return undefined;
    const ids = (await trx.selectFrom('assessments').select('analysis_id').where('external_id', '=', externalId).execute()).map((r) => r.analysis_id);
    let answers = 0;
    if (ids.length > 0) {
      answers = Number((await trx.deleteFrom('assessment_answers').where('analysis_id', 'in', ids).executeTakeFirst()).numDeletedRows);
      await trx.deleteFrom('assessment_page_times').where('analysis_id', 'in', ids).execute();
      await trx.deleteFrom('webhook_attempts').where('analysis_id', 'in', ids).execute();
      await eraseMail(trx, ids);
      await trx.deleteFrom('assessments').where('analysis_id', 'in', ids).execute();
    }
    await eraseKeysOf(trx, candidate.tenant_id, externalId);
    await trx.deleteFrom('candidates').where('external_id', '=', externalId).execute();
    await trx
      .insertInto('erasures')
      .values({
        id: randomUUID(),
        erased_at: new Date().toISOString(),
        tenant_id: candidate.tenant_id,
        erased_by: by.erasedBy,
        reason: by.reason,
        candidates: 1,
        assessments: ids.length,
        answers,
      })
      .execute();
    return { assessments: ids.length, answers, ids };
  });
  if (!erased) return undefined;
  store.caches.forgetCandidate(externalId);
  await sendsInFlight(store).settle(erased.ids);
  await store.scrub();
  return { assessments: erased.assessments, answers: erased.answers };
}

/** Whether the candidate is due for erasure under `retentionDays`, read inside the erasing transaction. */
export function dueUnder(retentionDays: number, now = Date.now()) {
  return async (trx: Kysely<DB>, candidate: { created_at: string }, externalId: string) => {
    const assessments = await trx
      .selectFrom('assessments')
      .select(['status', 'expires_at', 'completed_at', 'cancelled_at'])
      .where('external_id', '=', externalId)
      .execute();
    return retentionDue(candidate.created_at, assessments, retentionDays, now);
  };
}

/**
 * Candidates of a tenant that may be due: nothing of theirs is open or closed after `cutoff`. The
 * domain's `retentionDue` is the rule; this narrows the search to rows it would accept.
 */
export async function retentionCandidates(store: Store, tenantId: string, cutoff: string, limit: number): Promise<string[]> {
  const rows = await store.db
    .selectFrom('candidates as c')
    .select('c.external_id')
    .where('c.tenant_id', '=', tenantId)
    .where('c.created_at', '<=', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('assessments as a')
            .select(sql`1`.as('one'))
            .whereRef('a.external_id', '=', 'c.external_id')
            .where((eb) =>
              eb.or([
                eb.and([eb('a.status', '=', 'Completed'), eb('a.completed_at', '>', cutoff)]),
                eb.and([eb('a.status', '=', 'Cancelled'), eb('a.cancelled_at', '>', cutoff)]),
                eb.and([eb('a.status', 'in', ['Created', 'Started']), eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', cutoff)])]),
              ]),
            ),
        ),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => r.external_id);
}

export async function listErasures(store: Store, tenantId?: string) {
  let q = store.db.selectFrom('erasures').selectAll().orderBy('erased_at');
  if (tenantId) q = q.where('tenant_id', '=', tenantId);
  return q.execute();
}
