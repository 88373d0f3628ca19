import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import type { Config } from '../config.js';
import { privateFile } from '../private-files.js';
import type { DB } from './schema.js';
import { GroupCommitter } from './group-commit.js';
import { PgListener } from './pg-listener.js';
import { prepareMarkedStatements } from './pg-prepared.js';
import { run } from './prepared.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { compactAfterErasures } from './sqlite-compaction.js';
import { Database } from './sqlite-driver.js';
import { SqliteBackgroundReader } from './sqlite-background-reader.js';
import { SqliteWriter, type WriteObserver } from './sqlite-writer.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The one handle to the database. `write` runs a unit of work in a transaction and resolves
 * only after it committed; on SQLite concurrent writes share one commit (group commit).
 */
export interface Store {
  readonly dialect: Dialect;
  readonly db: Kysely<DB>;
  write<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  /** One statement, committed durably before it resolves: no transaction round trips on PostgreSQL. */
  execute<R>(query: CompiledQuery<R>): Promise<{ rows: R[]; changes: number }>;
  /**
   * Statements applied in order, all or none, committed durably before it resolves; each one's
   * result, in order. On SQLite they join the writer's next batch (no transaction of their own).
   * `when` is asked right before they run; if it says no, nothing runs and it resolves undefined.
   */
  executeAll(queries: ReadonlyArray<CompiledQuery<unknown>>, when?: () => boolean): Promise<Array<{ rows: unknown[]; changes: number }> | undefined>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * A number that changes whenever API keys or users may have changed, in this process or any
   * other. Cheap enough to call on every request; caches of credentials compare it.
   */
  credentialsVersion(): number;
  /** Called after this process changed credentials. */
  credentialsChanged(): void;
  /**
   * SQLite: a number that changes with every committed change to what an assessment's head holds
   * (migration 0008's triggers), in this process or any other; undefined while a transaction is
   * open on the connection, whose bump may yet roll back. Always undefined on PostgreSQL, which
   * keeps no such number: each read reads the head.
   */
  headsVersion(): number | undefined;
  /**
   * SQLite only: applies a connection setting (`PRAGMA query_only = ON`, say) to every connection
   * the store writes through. Tests use it to make the store refuse writes.
   */
  pragma?(sql: string): Promise<void>;
  /**
   * A read that may visit every row of a table (the metrics' counts). On SQLite it runs on a
   * worker thread's own connection, so the event loop does not wait for it; on PostgreSQL it is
   * an ordinary query.
   */
  backgroundRead<R>(query: CompiledQuery<R>): Promise<R[]>;
  /** Runs `handler` on every PostgreSQL NOTIFY on `channel`; nothing happens on SQLite. */
  listen(channel: string, handler: () => void): void;
  /**
   * After an erasure: on SQLite, copies the WAL into the database file and truncates it, so no
   * earlier version of an erased page stays readable in the log. Nothing on PostgreSQL, where
   * VACUUM reclaims dead rows (docs/PRIVACY.md).
   */
  scrub(): Promise<void>;
  /**
   * On SQLite, when a candidate was erased since the last time: rewrites the database file, so
   * no copy of an erased row that SQLite left in a rebuilt page stays (`sqlite-compaction.ts`).
   * Writes wait meanwhile. Resolves whether it ran; false on PostgreSQL (docs/PRIVACY.md).
   */
  compact(): Promise<boolean>;
}

/** PostgreSQL NOTIFY channel for credential changes (CLI, other instances). */
export const CREDENTIALS_CHANNEL = 'assay_credentials';

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

function openSqlite(path: string, serving: boolean, observe: WriteObserver | undefined): Store {
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
  const committer = new GroupCommitter<Kysely<DB>>((fn) => writer.exclusive(() => db.transaction().execute(fn)), { sync: () => writer.sync(), ...(observe ? { observe } : {}) });
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
    },
    backgroundRead: async (query) => (background ? background.read(query) : (await db.executeQuery(query)).rows),
    async pragma(statement) {
      raw.pragma(statement);
    },
    scrub: () => writer.exclusive(async () => truncateWal(raw)),
    compact: () => writer.exclusive(() => compactAfterErasures(raw, path, () => truncateWal(raw))),
    credentialsVersion: () => versions.credentials() ?? 0,
    credentialsChanged: versions.forget,
    headsVersion: () => (raw.inTransaction ? undefined : versions.heads()),
    listen: () => {},
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
function versionsReader(raw: BetterSqlite3.Database): { credentials(): number | undefined; heads(): number | undefined; forget(): void } {
  let statement: BetterSqlite3.Statement | undefined;
  let readAt = -Infinity;
  let versions: { credentials: number | null; heads: number | null } | undefined;
  const read = () => {
    const now = performance.now();
    if (now - readAt >= VERSION_MAX_AGE_MS) {
      // Prepared on first use: the tables exist only once the server has migrated.
      statement ??= raw.prepare(
        'SELECT (SELECT version FROM credentials_version WHERE id = 1) AS credentials, (SELECT version FROM heads_version WHERE id = 1) AS heads',
      );
      versions = statement.get() as typeof versions;
      readAt = now;
    }
    return versions!;
  };
  return {
    // Undefined when a row is missing (a file edited by hand): then no version holds.
    credentials: () => read().credentials ?? undefined,
    heads: () => read().heads ?? undefined,
    forget() {
      readAt = -Infinity;
    },
  };
}

/** Idle time before a PostgreSQL connection's first keepalive probe. */
const PG_KEEPALIVE_IDLE_MS = 10_000;

// COUNT(*) and BIGINT come back as strings by default; every number Assay stores fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

function openPostgres(url: string, poolSize: number, credentialsFlushMs: number, onPoolError: (err: Error) => void, observe: WriteObserver | undefined): Store {
  const poolOf = (max: number) => {
    // TCP keepalive: a connection whose server or network went away without a reset (a failover, a
    // NAT that dropped it while idle) is otherwise never found dead. A query whose answer never
    // comes waits for good, and so does the LISTEN connection, which only waits: notifications
    // stop and callers rely on their polls. Unanswered probes end it: the query fails, the pool
    // drops the connection, and the listener connects again.
    const p = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: PG_KEEPALIVE_IDLE_MS,
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    p.on('error', onPoolError);
    return p;
  };
  const pool = poolOf(poolSize);
  prepareMarkedStatements(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // LISTEN holds its connection for good. Taken from the queries' pool, it left them one fewer
  // than DATABASE_POOL_SIZE, and with a size of 1 none: the start waited, then failed.
  const listenPool = poolOf(1);
  const listener = new PgListener(listenPool);
  const executeAll = timed(observe, ({ queries, when }: { queries: ReadonlyArray<CompiledQuery<unknown>>; when: (() => boolean) | undefined }) =>
    db.transaction().execute(async (trx) => {
      if (when && !when()) return undefined;
      const results = [];
      for (const query of queries) results.push(await run(trx, query));
      return results;
    }),
  );
  let version = 0;
  const bump = () => void version++;
  listener.on(CREDENTIALS_CHANNEL, bump);
  // NOTIFY is fast but not guaranteed (the LISTEN connection may be down): a floor on staleness.
  // Credential caches are dropped at least every AUTH_CACHE_FLUSH_MS, whatever NOTIFY does.
  const floor = setInterval(bump, credentialsFlushMs);
  floor.unref();
  return {
    dialect: 'postgres',
    db,
    write: timed(observe, (fn) => db.transaction().execute(fn)),
    execute: timed(observe, (query) => run(db, query)),
    executeAll: (queries, when) => executeAll({ queries, when }),
    backgroundRead: async (query) => (await db.executeQuery(query)).rows,
    async ping() {
      await db.selectFrom('tenants').select('id').limit(1).execute();
    },
    async close() {
      clearInterval(floor);
      await listener.close();
      await listenPool.end();
      await db.destroy();
    },
    credentialsVersion: () => version,
    credentialsChanged: bump,
    headsVersion: () => undefined,
    listen: (channel, handler) => listener.on(channel, handler),
    scrub: async () => {},
    compact: async () => false,
  };
}

/** On PostgreSQL every write is its own commit: a batch of one, timed from the call. */
function timed<A, R>(observe: WriteObserver | undefined, fn: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  if (!observe) return fn;
  return async (arg) => {
    const at = performance.now();
    const result = await fn(arg);
    observe(1, (performance.now() - at) / 1000);
    return result;
  };
}

export interface OpenOptions {
  /** A long-running server (rather than a CLI command): SQLite gets its checkpoint and reader threads. */
  serving?: boolean;
  onPoolError?: (err: Error) => void;
  /** Told of every durable commit (metrics). */
  onDurableWrite?: WriteObserver;
}

export function openStore(database: Config['database'], options: OpenOptions = {}): Store {
  return database.kind === 'sqlite'
    ? openSqlite(database.path, options.serving ?? false, options.onDurableWrite)
    : openPostgres(database.url, database.poolSize, database.credentialsFlushMs, options.onPoolError ?? (() => {}), options.onDurableWrite);
}
