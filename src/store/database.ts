import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
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
import type { DB } from './schema.js';
import { GroupCommitter } from './group-commit.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The one handle to the database. `write` runs a unit of work in a transaction and resolves
 * only after it committed; on SQLite concurrent writes share one commit (group commit).
 */
export interface Store {
  readonly dialect: Dialect;
  readonly db: Kysely<DB>;
  write<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool, for LISTEN connections. */
  readonly pgPool?: pg.Pool;
}

// Kysely's SQLite driver starts transactions DEFERRED; a deferred writer can fail with
// SQLITE_BUSY when the CLI writes from another process. IMMEDIATE waits on busy_timeout instead.
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #raw: BetterSqlite3.Database;
  constructor(config: SqliteDialectConfig, raw: BetterSqlite3.Database) {
    super(config);
    this.#raw = raw;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
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
  constructor(raw: BetterSqlite3.Database) {
    const config = { database: withStatementCache(raw) };
    super(config);
    this.#config = config;
    this.#raw = raw;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config, this.#raw);
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
  mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = WAL');
  // FULL syncs the WAL on every commit: an acknowledged write survives power loss.
  raw.pragma('synchronous = FULL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  return raw;
}

function openSqlite(path: string): Store {
  const raw = openSqliteFile(path);
  const db = new Kysely<DB>({ dialect: new AssaySqliteDialect(raw) });
  const committer = new GroupCommitter<Kysely<DB>>((fn) => db.transaction().execute(fn));
  return {
    dialect: 'sqlite',
    db,
    write: (fn) => committer.submit(fn),
    async ping() {
      await db.selectFrom('tenants').select('id').limit(1).execute();
    },
    close: () => db.destroy(),
  };
}

// COUNT(*) and BIGINT come back as strings by default; every number Assay stores fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

function openPostgres(url: string, poolSize: number, onPoolError: (err: Error) => void): Store {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', onPoolError);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    dialect: 'postgres',
    db,
    pgPool: pool,
    write: (fn) => db.transaction().execute(fn),
    async ping() {
      await db.selectFrom('tenants').select('id').limit(1).execute();
    },
    close: () => db.destroy(),
  };
}

export function openStore(database: Config['database'], onPoolError: (err: Error) => void = () => {}): Store {
  return database.kind === 'sqlite' ? openSqlite(database.path) : openPostgres(database.url, database.poolSize, onPoolError);
}
