import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { CREDENTIALS_CHANNEL, type Store } from '../db/database.js';
import { prepared, read } from '../db/prepared.js';
import type { DB } from '../db/schema.js';

type Trx = Kysely<DB>;

const now = () => new Date().toISOString();

/** An active API key and, when the username exists, that user: what authentication decides on. */
export interface CallerRecord {
  key_id: string;
  key_tenant_id: string;
  portal_domain: string;
  user_id: string | null;
  user_tenant_id: string | null;
  password_hash: string | null;
  disabled: number | null;
}

const callerQuery = prepared((db, keyHash: string, username: string) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('api_users as u', (join) => join.on('u.username', '=', username))
    .select([
      'k.id as key_id',
      'k.tenant_id as key_tenant_id',
      'k.portal_domain',
      'u.id as user_id',
      'u.tenant_id as user_tenant_id',
      'u.password_hash',
      'u.disabled',
    ])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null),
);

/** Hot path: one indexed lookup for the key and the user together; undefined when the key is not active. */
export async function findCaller(store: Store, keyHash: string, username: string): Promise<CallerRecord | undefined> {
  return (await read(store, callerQuery(store.db, store.dialect, keyHash, username)))[0] as CallerRecord | undefined;
}

/**
 * A write that takes credentials away (revoke, reset, disable). Every process's caches hear
 * of it: on SQLite through the credentials_version row, on PostgreSQL through NOTIFY at commit.
 */
async function changeCredentials<T>(store: Store, fn: (trx: Trx) => Promise<T>): Promise<T> {
  const result = await store.write(async (trx) => {
    const out = await fn(trx);
    await trx
      .updateTable('credentials_version')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
    if (store.dialect === 'postgres') await sql`select pg_notify(${CREDENTIALS_CHANNEL}, '')`.execute(trx);
    return out;
  });
  store.credentialsChanged();
  return result;
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
  const row = await store.db
    .selectFrom('tenants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
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
/** Revokes the one live key of `table` with this id or prefix; an ambiguous prefix revokes none. */
export async function revokeOne(trx: Trx, table: 'api_keys' | 'greenhouse_keys', idOrPrefix: string): Promise<'revoked' | 'not-found' | 'ambiguous'> {
  const matches = await trx
    .selectFrom(table)
    .select('id')
    .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
    .where('revoked_at', 'is', null)
    .execute();
  if (matches.length === 0) return 'not-found';
  if (matches.length > 1) return 'ambiguous';
  await trx.updateTable(table).set({ revoked_at: now() }).where('id', '=', matches[0]!.id).execute();
  return 'revoked';
}

export async function revokeKey(store: Store, idOrPrefix: string): Promise<'revoked' | 'not-found' | 'ambiguous'> {
  return changeCredentials(store, (trx) => revokeOne(trx, 'api_keys', idOrPrefix));
}

export async function setPassword(store: Store, username: string, passwordHash: string): Promise<boolean> {
  return changeCredentials(store, async (trx) => {
    const r = await trx
      .updateTable('api_users')
      .set({ password_hash: passwordHash, disabled: 0, updated_at: now() })
      .where('username', '=', username)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  });
}

export async function disableUser(store: Store, username: string): Promise<boolean> {
  return changeCredentials(store, async (trx) => {
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

/** Active API keys by id, visible prefix or portal domain: how the CLI names a portal. */
export async function findActiveKeys(store: Store, by: { idOrPrefix?: string; portalDomain?: string }) {
  let q = store.db.selectFrom('api_keys').select(['id', 'prefix', 'tenant_id', 'portal_domain']).where('revoked_at', 'is', null);
  if (by.idOrPrefix) q = q.where((eb) => eb.or([eb('id', '=', by.idOrPrefix!), eb('prefix', '=', by.idOrPrefix!)]));
  if (by.portalDomain) q = q.where('portal_domain', '=', by.portalDomain);
  return q.execute();
}

/** The tenant's own retention, or `fallback` (RETENTION_DAYS) when it has none. */
export async function retentionDays(store: Store, tenantId: string, fallback: number): Promise<number> {
  const row = await store.db.selectFrom('tenants').select('retention_days').where('id', '=', tenantId).executeTakeFirst();
  return row?.retention_days ?? fallback;
}

/** Sets (or, with null, clears) a tenant's own retention. */
export async function setRetentionDays(store: Store, tenantId: string, days: number | null): Promise<void> {
  await store.write((trx) => trx.updateTable('tenants').set({ retention_days: days }).where('id', '=', tenantId).execute());
}

/**
 * The requester for what a console user orders: the tenant's oldest active API key and its portal
 * (docs/decisions: console-requester). None when the tenant has no active key.
 */
export async function consoleRequester(store: Store, tenantId: string): Promise<{ tenantId: string; apiKeyId: string; portalDomain: string } | undefined> {
  const key = await store.db
    .selectFrom('api_keys')
    .select(['id', 'portal_domain'])
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return key && { tenantId, apiKeyId: key.id, portalDomain: key.portal_domain };
}
