import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import { privateFile } from '../platform/private-files.js';
import type { DB } from './schema.js';
import { GroupCommitter } from './group-commit.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { compactAfterErasures } from './sqlite-compaction.js';
import { Database } from './sqlite-driver.js';
import { SqliteBackgroundReader } from './sqlite-background-reader.js';
import { SqliteWriter, type WriteObserver } from './sqlite-writer.js';
import type { Store } from './store.js';
import { StoreCaches } from './store-caches.js';

// Kysely's SQLite driver starts transactions DEFERRED; a deferred writer can fail with
// SQLITE_BUSY when the CLI writes from another process. IMMEDIATE waits on busy_timeout instead.
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #raw: BetterSqlite3.Database;
  readonly #onCommit: () => void;
  constructor(config: SqliteDialectConfig, raw: BetterSqlite3.Database, onCommit: () => void) {
    super(config);
    this.#raw = raw;
    this.#onCommit = onCommit;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  // Told at once, before the connection is handed to a waiting read.
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await super.commitTransaction(connection);
    this.#onCommit();
  }
  // After SQLITE_FULL or an I/O error SQLite has already rolled back; a second ROLLBACK would
  // fail and hide the error that says what happened.
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#raw.inTransaction) await super.rollbackTransaction(connection);
  }
}

// SQLite has transactional DDL; saying so makes the migrator run inside BEGIN IMMEDIATE,
// which serialises processes that migrate the same file at once.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class AssaySqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #raw: BetterSqlite3.Database;
  readonly #onCommit: () => void;
  constructor(raw: BetterSqlite3.Database, onCommit: () => void = () => {}) {
    const config = { database: withStatementCache(raw) };
    super(config);
    this.#config = config;
    this.#raw = raw;
    this.#onCommit = onCommit;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config, this.#raw, this.#onCommit);
  }
  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** better-sqlite3 compiles a statement on every prepare(); Kysely prepares per query, so keep them. */
function withStatementCache(raw: BetterSqlite3.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = raw.prepare(sql) as unknown as SqliteStatement;
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

export function openSqliteFile(path: string): BetterSqlite3.Database {
  // A folder Assay makes is owner-only; an existing one is the operator's (DATA_DIR's is tightened at start).
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // SQLite creates the WAL and SHM with the database file's own mode, so the file comes first.
  privateFile(path);
  for (const companion of [`${path}-wal`, `${path}-shm`]) privateFile(companion, false);
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  // FULL syncs the WAL on every commit: an acknowledged write survives power loss.
  raw.pragma('synchronous = FULL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  // Deleted content is overwritten with zeros, not left in free space: erasure means erased.
  raw.pragma('secure_delete = ON');
  return raw;
}

/** A TRUNCATE checkpoint, retried while the checkpoint worker holds the log for a moment. */
async function truncateWal(raw: BetterSqlite3.Database): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const [result] = raw.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (result?.busy === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw Object.assign(new Error('the WAL could not be truncated after an erasure'), { code: 'SQLITE_BUSY' });
}

// Often enough that the log stays small and is overwritten in place (syncs without a size change are cheaper).
const CHECKPOINT_EVERY_MS = 100;

export function openSqlite(path: string, serving: boolean, observe: WriteObserver | undefined): Store {
  const raw = openSqliteFile(path);
  if (serving) {
    raw.pragma('wal_autocheckpoint = 0');
    // The log is reused after each whole checkpoint; this trims what a burst left behind.
    raw.pragma('journal_size_limit = 16777216');
  }
  // Durability without blocking: COMMIT writes the WAL (synchronous=NORMAL), then the WAL is
  // synced on the thread pool and only then is anyone answered. A 201 still means the row is
  // on disk, as with synchronous=FULL, but the fsync no longer holds the event loop.
  raw.pragma('synchronous = NORMAL');
  const versions = versionsReader(raw);
  // A commit of this process's may have bumped one, a transaction's or a batch's: the next read looks again at once.
  const db = new Kysely<DB>({ dialect: new AssaySqliteDialect(raw, versions.forget) });
  const writer = new SqliteWriter(raw, `${path}-wal`, { ...(observe ? { observe } : {}), onCommit: versions.forget });
  // While serving, a worker thread checkpoints; a checkpoint here would stall the event loop.
  const checkpointer = serving ? new SqliteCheckpointer(path, CHECKPOINT_EVERY_MS, (fn) => writer.exclusive(fn)) : undefined;
  // Transactions with application logic in them share commits, while the writer runs no batch.
  const committer = new GroupCommitter<Kysely<DB>>((fn) => writer.exclusive(() => db.transaction().execute(fn)), {
    sync: () => writer.sync(),
    ...(observe ? { observe } : {}),
  });
  const background = serving ? new SqliteBackgroundReader(path) : undefined;
  return {
    dialect: 'sqlite',
    db,
    write: (fn) => committer.submit(fn),
    execute: (query) => writer.execute(query),
    executeAll: (queries, when) => writer.executeAll(queries, when),
    async ping() {
      await db.selectFrom('tenants').select('id').limit(1).execute();
    },
    async close() {
      await writer.stop();
      await background?.stop();
      await checkpointer?.stop();
      await db.destroy();
      // Kysely closes the connection only once a query has used it: a store closed unused would keep its files open.
      if (raw.open) raw.close();
    },
    backgroundRead: async (query) => (background ? background.read(query) : (await db.executeQuery(query)).rows),
    async pragma(statement) {
      raw.pragma(statement);
    },
    scrub: () => writer.exclusive(async () => truncateWal(raw)),
    compact: () => writer.exclusive(() => compactAfterErasures(raw, path, () => truncateWal(raw))),
    credentialsVersion: () => versions.credentials() ?? 0,
    credentialsChanged: versions.forget,
    summariesVersion: () => (raw.inTransaction ? undefined : versions.summaries()),
    listen: () => {},
    caches: new StoreCaches(),
  };
}

/** How long a version read is used for: a change committed elsewhere is seen within this. */
export const VERSION_MAX_AGE_MS = 1;

/**
 * Two one-row version tables that every change of their kind bumps in the change's own transaction:
 * credentials_version (credential changes, the CLI's included) and heads_version (triggers,
 * migration 0008). Both are read in one statement, at most once a millisecond, and again after
 * `forget`: requests handled close together share the answer, and a change committed by another
 * process is seen by every request handled a millisecond later, however busy the event loop. One
 * statement, not one per table: a statement's cost is mostly SQLite starting and ending its read
 * (file locks), and an API read asks for both versions.
 */
function versionsReader(raw: BetterSqlite3.Database): { credentials(): number | undefined; summaries(): number | undefined; forget(): void } {
  let statement: BetterSqlite3.Statement | undefined;
  let readAt = -Infinity;
  let versions: { credentials: number | null; summaries: number | null } | undefined;
  const read = () => {
    const now = performance.now();
    if (now - readAt >= VERSION_MAX_AGE_MS) {
      // Prepared on first use: the tables exist only once the server has migrated.
      statement ??= raw.prepare(
        'SELECT (SELECT version FROM credentials_version WHERE id = 1) AS credentials, (SELECT version FROM heads_version WHERE id = 1) AS summaries',
      );
      versions = statement.get() as typeof versions;
      readAt = now;
    }
    return versions!;
  };
  return {
    // Undefined when a row is missing (a file edited by hand): then no version holds.
    credentials: () => read().credentials ?? undefined,
    summaries: () => read().summaries ?? undefined,
    forget() {
      readAt = -Infinity;
    },
  };
}
