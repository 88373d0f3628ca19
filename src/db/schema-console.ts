// Row shapes of the console's tables (migration 0023), apart to keep schema.ts short.

export type ConsoleRole = 'admin' | 'recruiter' | 'viewer';

/** A person who signs in to the console (migration 0023). */
export interface ConsoleUserTable {
  id: string;
  tenant_id: string;
  /** Lower-cased; unique across tenants. */
  email: string;
  role: ConsoleRole;
  /** Null until the first set-password link is used. */
  password_hash: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A one-time link to set a console user's password: the token's SHA-256. */
export interface ConsolePasswordLinkTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A signed-in console browser: the session id's SHA-256. */
export interface ConsoleSessionTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  /** The last request, for the idle timeout (written at most once a minute). */
  seen_at: string;
  /** The absolute end. */
  expires_at: string;
}

/** What a console user did, and from where; never a candidate's personal data. */
export interface ConsoleAuditTable {
  id: string;
  tenant_id: string | null;
  user_id: string | null;
  action: string;
  address: string | null;
  at: string;
}

export interface ConsoleTables {
  console_users: ConsoleUserTable;
  console_password_links: ConsolePasswordLinkTable;
  console_sessions: ConsoleSessionTable;
  console_audit: ConsoleAuditTable;
}
