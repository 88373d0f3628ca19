import { randomUUID } from 'node:crypto';
import type { Store } from '../db/database.js';
import { revokeOne } from './credentials-store.js';

const now = () => new Date().toISOString();

export interface NewGreenhouseKey {
  tenantId: string;
  apiKeyId: string;
  prefix: string;
  hash: string;
}

export async function createGreenhouseKey(store: Store, key: NewGreenhouseKey): Promise<string> {
  const id = randomUUID();
  await store.write((trx) =>
    trx
      .insertInto('greenhouse_keys')
      .values({ id, tenant_id: key.tenantId, api_key_id: key.apiKeyId, prefix: key.prefix, key_hash: key.hash, created_at: now(), revoked_at: null })
      .execute(),
  );
  return id;
}

/** The active key with this SHA-256, on an active portal key: one indexed lookup per request. */
export async function findGreenhouseKey(store: Store, keyHash: string) {
  return store.db
    .selectFrom('greenhouse_keys as g')
    .innerJoin('api_keys as k', 'k.id', 'g.api_key_id')
    .select(['g.id', 'g.tenant_id', 'g.api_key_id', 'k.portal_domain'])
    .where('g.key_hash', '=', keyHash)
    .where('g.revoked_at', 'is', null)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function listGreenhouseKeys(store: Store, tenantId?: string) {
  let q = store.db
    .selectFrom('greenhouse_keys as g')
    .innerJoin('api_keys as k', 'k.id', 'g.api_key_id')
    .select(['g.id', 'g.prefix', 'g.tenant_id', 'k.prefix as api_key_prefix', 'k.portal_domain', 'g.created_at', 'g.revoked_at'])
    .orderBy('g.created_at');
  if (tenantId) q = q.where('g.tenant_id', '=', tenantId);
  return q.execute();
}

/** Revokes by id or visible prefix; an ambiguous prefix revokes none. */
export async function revokeGreenhouseKey(store: Store, idOrPrefix: string): Promise<'revoked' | 'not-found' | 'ambiguous'> {
  return store.write((trx) => revokeOne(trx, 'greenhouse_keys', idOrPrefix));
}
