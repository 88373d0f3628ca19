import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Store } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { KEEP_MS, LEASE_MS, verdictFor, type Verdict } from './rules.js';

/** One request's hold on its key, from the claim to the stored response. */
export interface Claim {
  apiKeyId: string;
  keyHash: string;
  claimId: string;
}

export interface ClaimRequest {
  apiKeyId: string;
  tenantId: string;
  keyHash: string;
  requestHash: string;
  /** The candidate the response will concern, so that their erasure removes it. */
  externalId: string | undefined;
}

export type ClaimOutcome = { kind: 'claimed'; claim: Claim } | Exclude<Verdict, { kind: 'take-over' }>;

/**
 * Claims the key for this request, or says what the request gets instead. The claim is an insert
 * under the table's primary key, so of racing requests on any number of instances one wins; a
 * take-over is an update guarded by the claim it replaces, so of racing take-overs one wins too.
 */
export async function claimKey(store: Store, req: ClaimRequest, now = Date.now()): Promise<ClaimOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimId = randomUUID();
    const fresh = {
      request_hash: req.requestHash,
      external_id: req.externalId ?? null,
      claim_id: claimId,
      created_at: new Date(now).toISOString(),
      lease_until: new Date(now + LEASE_MS).toISOString(),
      response_status: null,
      response_body: null,
    };
    const claim = { kind: 'claimed' as const, claim: { apiKeyId: req.apiKeyId, keyHash: req.keyHash, claimId } };
    const inserted = await store.write((trx) =>
      trx
        .insertInto('idempotency_keys')
        .values({ api_key_id: req.apiKeyId, key_hash: req.keyHash, tenant_id: req.tenantId, ...fresh })
        .onConflict((oc) => oc.columns(['api_key_id', 'key_hash']).doNothing())
        .executeTakeFirst(),
    );
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return claim;
    const row = await store.db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'claim_id', 'created_at', 'lease_until', 'response_status', 'response_body'])
      .where('api_key_id', '=', req.apiKeyId)
      .where('key_hash', '=', req.keyHash)
      .executeTakeFirst();
    // Swept or erased between the two statements: claim again.
    if (!row) continue;
    const verdict = verdictFor(row, req.requestHash, now);
    if (verdict.kind !== 'take-over') return verdict;
    const taken = await store.write((trx) =>
      trx
        .updateTable('idempotency_keys')
        .set(fresh)
        .where('api_key_id', '=', req.apiKeyId)
        .where('key_hash', '=', req.keyHash)
        .where('claim_id', '=', row.claim_id)
        .executeTakeFirst(),
    );
    if (Number(taken.numUpdatedRows) === 1) return claim;
  }
  // Three lost races in a row: the key is that busy, so it is in flight.
  return { kind: 'in-flight' };
}

/** Keeps the response for replay; false when the claim was taken over meanwhile (its lease lapsed). */
export async function keepResponse(store: Store, claim: Claim, status: number, body: string): Promise<boolean> {
  const r = await store.write((trx) =>
    trx
      .updateTable('idempotency_keys')
      .set({ response_status: status, response_body: body })
      .where('api_key_id', '=', claim.apiKeyId)
      .where('key_hash', '=', claim.keyHash)
      .where('claim_id', '=', claim.claimId)
      .executeTakeFirst(),
  );
  return Number(r.numUpdatedRows) === 1;
}

/** Lets the key go, so that a retry runs the request again. */
export async function releaseClaim(store: Store, claim: Claim): Promise<void> {
  await store.write((trx) =>
    trx
      .deleteFrom('idempotency_keys')
      .where('api_key_id', '=', claim.apiKeyId)
      .where('key_hash', '=', claim.keyHash)
      .where('claim_id', '=', claim.claimId)
      .execute(),
  );
}

/** Removes the keys older than KEEP_MS; how many. Run by the retention sweep (src/lifecycle/retention.ts). */
export async function sweepExpiredKeys(store: Store, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - KEEP_MS).toISOString();
  const r = await store.write((trx) => trx.deleteFrom('idempotency_keys').where('created_at', '<=', cutoff).executeTakeFirst());
  return Number(r.numDeletedRows);
}

/** Inside an erasure: the stored responses that concern the candidate go with them. */
export async function eraseKeysOf(trx: Kysely<DB>, tenantId: string, externalId: string): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('tenant_id', '=', tenantId).where('external_id', '=', externalId).execute();
}
