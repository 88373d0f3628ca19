import type { Store } from '../db/database.js';
import type { ConsoleRole } from '../tenancy/console-users.js';

export interface SessionRow {
  user_id: string;
  tenant_id: string;
  email: string;
  role: ConsoleRole;
  seen_at: string;
  expires_at: string;
}

/** A new session; the user's sessions that have ended go at the same time, so the table holds only live ones and a few idle. */
export async function insertSession(store: Store, row: { idHash: string; userId: string; at: string; expiresAt: string; idleBefore: string }): Promise<void> {
  await store.write(async (trx) => {
    await trx
      .deleteFrom('console_sessions')
      .where('user_id', '=', row.userId)
      .where((eb) => eb.or([eb('expires_at', '<=', row.at), eb('seen_at', '<', row.idleBefore)]))
      .execute();
    await trx
      .insertInto('console_sessions')
      .values({ id_hash: row.idHash, user_id: row.userId, created_at: row.at, seen_at: row.at, expires_at: row.expiresAt })
      .execute();
  });
}

/** The session and its user, while the user is enabled; a disabled user's sessions read as none. */
export async function findSession(store: Store, idHash: string): Promise<SessionRow | undefined> {
  return store.db
    .selectFrom('console_sessions as s')
    .innerJoin('console_users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 'u.tenant_id', 'u.email', 'u.role', 's.seen_at', 's.expires_at'])
    .where('s.id_hash', '=', idHash)
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
}

export async function touchSession(store: Store, idHash: string, at: string): Promise<void> {
  await store.write((trx) => trx.updateTable('console_sessions').set({ seen_at: at }).where('id_hash', '=', idHash).execute());
}

export async function deleteSession(store: Store, idHash: string): Promise<void> {
  await store.write((trx) => trx.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute());
}
