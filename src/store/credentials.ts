import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Store } from './database.js';
import type { DB } from './schema.js';

type Trx = Kysely<DB>;

const now = () => new Date().toISOString();

export interface ActiveKey {
  id: string;
  tenant_id: string;
  portal_domain: string;
}

export interface UserRecord {
  id: string;
  tenant_id: string;
  password_hash: string;
  disabled: number;
}

/** Hot path: one indexed lookup per API request, so a revoked key stops working at once. */
export async function findActiveKey(store: Store, keyHash: string): Promise<ActiveKey | undefined> {
  return store.db
    .selectFrom('api_keys')
    .select(['id', 'tenant_id', 'portal_domain'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Hot path: the stored hash is part of the verification cache key, so a reset takes effect at once. */
export async function findUser(store: Store, username: string): Promise<UserRecord | undefined> {
  return store.db
    .selectFrom('api_users')
    .select(['id', 'tenant_id', 'password_hash', 'disabled'])
    .where('username', '=', username)
    .executeTakeFirst();
}

export async function findTenant(store: Store, idOrName: string) {
  return store.db
    .selectFrom('tenants')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
    .executeTakeFirst();
}

export async function listTenants(store: Store) {
  return store.db.selectFrom('tenants').selectAll().orderBy('created_at').execute();
}

export async function countTenants(store: Store): Promise<number> {
  const row = await store.db.selectFrom('tenants').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewKey {
  prefix: string;
  hash: string;
  portalDomain: string;
}

export interface NewUser {
  username: string;
  passwordHash: string;
}

/** A tenant with its first user and key, in one transaction. */
export async function createTenant(store: Store, name: string, user: NewUser, key: NewKey) {
  const tenantId = randomUUID();
  const at = now();
  return store.write(async (trx) => {
    await trx.insertInto('tenants').values({ id: tenantId, name, created_at: at }).execute();
    const userId = await insertUser(trx, tenantId, user, at);
    const keyId = await insertKey(trx, tenantId, key, at);
    return { tenantId, userId, keyId };
  });
}

async function insertUser(trx: Trx, tenantId: string, user: NewUser, at: string): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('api_users')
    .values({ id, tenant_id: tenantId, username: user.username, password_hash: user.passwordHash, disabled: 0, created_at: at, updated_at: at })
    .execute();
  return id;
}

async function insertKey(trx: Trx, tenantId: string, key: NewKey, at: string): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('api_keys')
    .values({ id, tenant_id: tenantId, prefix: key.prefix, key_hash: key.hash, portal_domain: key.portalDomain, created_at: at, revoked_at: null })
    .execute();
  return id;
}

export async function createUser(store: Store, tenantId: string, user: NewUser): Promise<string> {
  return store.write((trx) => insertUser(trx, tenantId, user, now()));
}

export async function createKey(store: Store, tenantId: string, key: NewKey): Promise<string> {
  return store.write((trx) => insertKey(trx, tenantId, key, now()));
}

export async function listKeys(store: Store, tenantId?: string) {
  let q = store.db
    .selectFrom('api_keys')
    .innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
    .select(['api_keys.id', 'api_keys.prefix', 'api_keys.portal_domain', 'api_keys.created_at', 'api_keys.revoked_at', 'tenants.name as tenant'])
    .orderBy('api_keys.created_at');
  if (tenantId) q = q.where('api_keys.tenant_id', '=', tenantId);
  return q.execute();
}

/** Revokes by id or visible prefix; returns how many keys it revoked (a prefix may be ambiguous: then none). */
export async function revokeKey(store: Store, idOrPrefix: string): Promise<'revoked' | 'not-found' | 'ambiguous'> {
  return store.write(async (trx) => {
    const matches = await trx
      .selectFrom('api_keys')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
      .where('revoked_at', 'is', null)
      .execute();
    if (matches.length === 0) return 'not-found';
    if (matches.length > 1) return 'ambiguous';
    await trx.updateTable('api_keys').set({ revoked_at: now() }).where('id', '=', matches[0]!.id).execute();
    return 'revoked';
  });
}

export async function setPassword(store: Store, username: string, passwordHash: string): Promise<boolean> {
  return store.write(async (trx) => {
    const r = await trx
      .updateTable('api_users')
      .set({ password_hash: passwordHash, disabled: 0, updated_at: now() })
      .where('username', '=', username)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  });
}

export async function disableUser(store: Store, username: string): Promise<boolean> {
  return store.write(async (trx) => {
    const r = await trx.updateTable('api_users').set({ disabled: 1, updated_at: now() }).where('username', '=', username).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  });
}

export async function listUsers(store: Store, tenantId?: string) {
  let q = store.db
    .selectFrom('api_users')
    .innerJoin('tenants', 'tenants.id', 'api_users.tenant_id')
    .select(['api_users.id', 'api_users.username', 'api_users.disabled', 'api_users.created_at', 'tenants.name as tenant'])
    .orderBy('api_users.created_at');
  if (tenantId) q = q.where('api_users.tenant_id', '=', tenantId);
  return q.execute();
}
