import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { retentionDue } from './rules.js';
import type { Store } from '../db/database.js';
import type { DB, ErasureTable } from '../db/schema.js';
import { eraseMail } from '../mail/outbox-store.js';
import { eraseKeysOf } from '../idempotency/keys-store.js';

export interface Erased {
  assessments: number;
  answers: number;
}

/** Who erases, and why: kept in the audit row. `tenantId`, when given, confines the erasure to that tenant's candidate. */
export interface ErasedBy {
  tenantId?: string;
  erasedBy: string;
  reason: ErasureTable['reason'];
}

/**
 * Deletes a candidate and every row about them in one transaction, with the audit row
 * (lifecycle/erase.ts says what is erased). `due`, when given, is checked again inside the
 * transaction (the retention sweep), so an instance that lost the race erases nothing.
 * Returns the erased assessments' ids.
 */
export async function deleteCandidate(
  store: Store,
  externalId: string,
  by: ErasedBy,
  due?: (trx: Kysely<DB>, candidate: { created_at: string }, externalId: string) => Promise<boolean>,
): Promise<(Erased & { ids: string[] }) | undefined> {
  return store.write(async (trx) => {
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
