import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrateFreshTo } from '../db/migrate.js';
import { Database } from '../db/sqlite-driver.js';

/** The backup's queries: the SQLite file opened directly with better-sqlite3, no server in between. */

export function waitWhileBusy(db: BetterSqlite3.Database): void {
  db.pragma('busy_timeout = 5000');
}

/** DELETE: a single file that opens on its own; WAL: the mode the server runs in. */
export function setJournalMode(db: BetterSqlite3.Database, mode: 'DELETE' | 'WAL'): void {
  db.pragma(`journal_mode = ${mode}`);
}

/** SQLite's own check: 'ok', or what is damaged. */
export function quickCheck(db: BetterSqlite3.Database): unknown {
  return db.pragma('quick_check', { simple: true });
}

/** The migrations applied, in order; throws when the file has no migration table. */
export function appliedMigrations(db: BetterSqlite3.Database): string[] {
  return (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
}

export interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

export function schemaEntries(db: BetterSqlite3.Database): SchemaEntry[] {
  return db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all() as SchemaEntry[];
}

/** The schema this version's migrations make, up to `lastMigration`, in a fresh in-memory database. */
export async function migratedSchema(lastMigration: string | undefined): Promise<SchemaEntry[]> {
  const fresh = new Database(':memory:');
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: fresh }) });
  try {
    await migrateFreshTo(kysely, lastMigration);
    return schemaEntries(fresh);
  } finally {
    await kysely.destroy();
  }
}

export function sealedWebhookPassword(db: BetterSqlite3.Database): { id: string; value: string } | undefined {
  return db.prepare('SELECT analysis_id AS id, webhook_password_enc AS value FROM assessments WHERE webhook_password_enc IS NOT NULL LIMIT 1').get() as
    { id: string; value: string } | undefined;
}

export function sealedSigningSecret(db: BetterSqlite3.Database): { id: string; value: string } | undefined {
  return db.prepare('SELECT api_key_id AS id, webhook_secret_enc AS value FROM portal_settings WHERE webhook_secret_enc IS NOT NULL LIMIT 1').get() as
    { id: string; value: string } | undefined;
}
