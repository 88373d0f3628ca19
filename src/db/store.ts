import type { CompiledQuery, Kysely } from 'kysely';
import type { Dialect } from './dialect.js';
import type { DB } from './schema.js';
import type { StoreCaches } from './store-caches.js';

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
   * SQLite: a number that changes with every committed change to what an assessment's summary holds
   * (migration 0008's triggers), in this process or any other; undefined while a transaction is
   * open on the connection, whose bump may yet roll back. Always undefined on PostgreSQL, which
   * keeps no such number: each read reads the summary.
   */
  summariesVersion(): number | undefined;
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
  /** What is kept in memory for this store, made on first use and gone with it. */
  readonly caches: StoreCaches;
}

/** PostgreSQL NOTIFY channel for credential changes (CLI, other instances). */
export const CREDENTIALS_CHANNEL = 'assay_credentials';
