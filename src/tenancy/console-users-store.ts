import { randomUUID } from 'node:crypto';
import type { Store } from '../db/database.js';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { ConsoleRole, ConsoleUserTable } from '../db/schema-console.js';

export type { ConsoleRole } from '../db/schema-console.js';

export type ConsoleUserRow = Omit<ConsoleUserTable, 'updated_at'>;

/** Who made a change to a console user: a console user, or the operator's CLI (no user), and from which address. */
export interface Actor {
  userId: string | null;
  address: string | null;
}

/** The audit row of a change to a user, written in the change's transaction (the table is the console's audit log). */
async function audit(trx: Kysely<DB>, tenantId: string, actor: Actor, action: string, at: string): Promise<void> {
  await trx.insertInto('console_audit').values({ id: randomUUID(), tenant_id: tenantId, user_id: actor.userId, action, address: actor.address, at }).execute();
}

const COLUMNS = ['id', 'tenant_id', 'email', 'role', 'password_hash', 'disabled_at', 'created_at'] as const;

/** A new user without a password, and the first set-password link, in one transaction. Throws a unique violation for a taken e-mail. */
export async function insertConsoleUser(
  store: Store,
  user: { tenantId: string; email: string; role: ConsoleRole },
  link: { tokenHash: string; expiresAt: string },
  actor: Actor,
  at: string,
): Promise<string> {
  const id = randomUUID();
  await store.write(async (trx) => {
    await trx
      .insertInto('console_users')
      .values({ id, tenant_id: user.tenantId, email: user.email, role: user.role, password_hash: null, disabled_at: null, created_at: at, updated_at: at })
      .execute();
    await trx
      .insertInto('console_password_links')
      .values({ token_hash: link.tokenHash, user_id: id, created_at: at, expires_at: link.expiresAt, used_at: null })
      .execute();
    await audit(trx, user.tenantId, actor, 'user.created', at);
  });
  return id;
}

export async function findConsoleUserByEmail(store: Store, email: string): Promise<ConsoleUserRow | undefined> {
  return store.db.selectFrom('console_users').select(COLUMNS).where('email', '=', email).executeTakeFirst();
}

export async function listConsoleUsers(store: Store, tenantId?: string): Promise<Array<ConsoleUserRow & { tenant: string }>> {
  let q = store.db
    .selectFrom('console_users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .select(['u.id', 'u.tenant_id', 'u.email', 'u.role', 'u.password_hash', 'u.disabled_at', 'u.created_at', 't.name as tenant'])
    .orderBy('t.name')
    .orderBy('u.email');
  if (tenantId) q = q.where('u.tenant_id', '=', tenantId);
  return q.execute();
}

/** Disables the user and ends every session of theirs at once; false when there is no such user. */
export async function disableConsoleUser(store: Store, user: { id: string; tenant_id: string }, actor: Actor, at: string): Promise<boolean> {
  const userId = user.id;
  return store.write(async (trx) => {
    const r = await trx.updateTable('console_users').set({ disabled_at: at, updated_at: at }).where('id', '=', userId).executeTakeFirst();
    await trx.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
    await trx.deleteFrom('console_password_links').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await audit(trx, user.tenant_id, actor, 'user.disabled', at);
    return Number(r.numUpdatedRows) > 0;
  });
}

/** A new set-password link; earlier unused links of the user stop working. */
export async function replacePasswordLink(
  store: Store,
  user: { id: string; tenant_id: string },
  link: { tokenHash: string; expiresAt: string },
  actor: Actor,
  at: string,
): Promise<void> {
  const userId = user.id;
  await store.write(async (trx) => {
    await trx.deleteFrom('console_password_links').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('console_password_links')
      .values({ token_hash: link.tokenHash, user_id: userId, created_at: at, expires_at: link.expiresAt, used_at: null })
      .execute();
    await audit(trx, user.tenant_id, actor, 'user.reset', at);
  });
}

/** The user a link is for, while the link is unused and unexpired. */
export async function findPasswordLink(store: Store, tokenHash: string, at: string): Promise<ConsoleUserRow | undefined> {
  return store.db
    .selectFrom('console_password_links as l')
    .innerJoin('console_users as u', 'u.id', 'l.user_id')
    .select(['u.id', 'u.tenant_id', 'u.email', 'u.role', 'u.password_hash', 'u.disabled_at', 'u.created_at'])
    .where('l.token_hash', '=', tokenHash)
    .where('l.used_at', 'is', null)
    .where('l.expires_at', '>', at)
    .executeTakeFirst();
}

/**
 * Uses a link, once: sets the password, enables the user again, and ends their sessions, in one
 * transaction. The user, or undefined when the link is unknown, used or expired.
 */
export async function usePasswordLink(
  store: Store,
  tokenHash: string,
  passwordHash: string,
  address: string | null,
  at: string,
): Promise<ConsoleUserRow | undefined> {
  return store.write(async (trx) => {
    const link = await trx
      .updateTable('console_password_links')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returning('user_id')
      .executeTakeFirst();
    if (!link) return undefined;
    await trx.updateTable('console_users').set({ password_hash: passwordHash, disabled_at: null, updated_at: at }).where('id', '=', link.user_id).execute();
    await trx.deleteFrom('console_sessions').where('user_id', '=', link.user_id).execute();
    const user = await trx.selectFrom('console_users').select(COLUMNS).where('id', '=', link.user_id).executeTakeFirstOrThrow();
    await audit(trx, user.tenant_id, { userId: user.id, address }, 'password.set', at);
    return user;
  });
}
