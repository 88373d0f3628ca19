import { closeSync, fdatasync, openSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';

export interface Result {
  rows: unknown[];
  changes: number;
}

interface Op {
  /** When it was queued (performance.now()), for the write-latency metric. */
  at: number;
  /** One statement, or several applied all or none. */
  statements: ReadonlyArray<CompiledQuery<unknown>>;
  /** Asked when the batch runs: false skips the group, which then resolves with undefined. */
  when?: () => boolean;
  resolve(results: Result[] | undefined): void;
  reject(error: unknown): void;
}

/** Answers what one sync made durable (or reports why it could not). */
type Settle = (syncError: Error | undefined) => void;

/** Makes everything written to the descriptor so far durable, then calls back. */
export type SyncFd = (fd: number, done: (error: Error | null) => void) => void;

/** Told of each durable commit: how many writes it held, and how long the oldest waited for it. */
export type WriteObserver = (batchSize: number, seconds: number) => void;

const MAX_BATCH = 512;
/** Syncs in flight at once: a batch committed while one runs starts its own rather than waiting for it to end. */
const MAX_SYNCS = 2;
const MAX_STATEMENTS = 64;

/**
 * Durable writes on the SQLite connection, without blocking the event loop on the disk.
 *
 * - **Single statements** (`execute`: create-candidate, create-assessment) queued in one turn
 *   of the event loop run together, synchronously, as one transaction. Nothing else can touch
 *   the connection meanwhile, and each statement costs a few microseconds. A short group of
 *   statements (`executeAll`: a portal page's save) joins the batch the same way, all or none
 *   under a savepoint.
 * - **Durability.** COMMIT writes the WAL (synchronous=NORMAL). Then an fdatasync of the WAL
 *   runs on the libuv thread pool, and only when it is done are the batch's writes answered.
 *   A sync covers what was committed before it started, so an answer means the rows are on disk.
 * - **Transactions with logic in them** (`exclusive`) await between their statements. While
 *   one is open, batches wait, so a batch never joins it; `sync` makes it durable afterwards.
 */
export class SqliteWriter {
  readonly #raw: BetterSqlite3.Database;
  readonly #walPath: string;
  readonly #syncFd: SyncFd;
  readonly #observe: WriteObserver | undefined;
  #walFd: number | undefined;
  readonly #retiredFds: number[] = [];
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  readonly #begin: BetterSqlite3.Statement;
  readonly #commit: BetterSqlite3.Statement;
  readonly #rollback: BetterSqlite3.Statement;
  readonly #savepoint: BetterSqlite3.Statement;
  readonly #release: BetterSqlite3.Statement;
  readonly #rollbackToSavepoint: BetterSqlite3.Statement;
  #queue: Op[] = [];
  #scheduled = false;
  #exclusive = 0;
  #syncs = 0;
  #unsynced: Settle[] = [];
  readonly #idle: Array<() => void> = [];
  readonly #onCommit: () => void;

  /**
   * `onCommit` is told after each batch's commit. A transaction run in `exclusive` is not the
   * writer's to tell: whoever runs it commits it (store/database.ts: the Kysely driver tells).
   */
  constructor(raw: BetterSqlite3.Database, walPath: string, options: { syncFd?: SyncFd; observe?: WriteObserver; onCommit?: () => void } = {}) {
    this.#raw = raw;
    this.#onCommit = options.onCommit ?? (() => {});
    this.#walPath = walPath;
    this.#syncFd = options.syncFd ?? fdatasync;
    this.#observe = options.observe;
    this.#begin = raw.prepare('BEGIN IMMEDIATE');
    this.#commit = raw.prepare('COMMIT');
    this.#rollback = raw.prepare('ROLLBACK');
    this.#savepoint = raw.prepare('SAVEPOINT assay_op');
    this.#release = raw.prepare('RELEASE assay_op');
    this.#rollbackToSavepoint = raw.prepare('ROLLBACK TO assay_op');
  }

  execute<R>(query: CompiledQuery<R>): Promise<{ rows: R[]; changes: number }> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ at: performance.now(), statements: [query], resolve: (results) => resolve(results![0] as { rows: R[]; changes: number }), reject });
      this.#schedule();
    });
  }

  /**
   * Statements applied in order, all or none, in the next batch; each one's result, in order.
   * `when` is asked as the batch reaches the group (a batch can wait behind exclusive work): if it
   * says no, nothing is applied and the promise resolves with undefined.
   */
  executeAll(queries: ReadonlyArray<CompiledQuery<unknown>>, when?: () => boolean): Promise<Result[] | undefined> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ at: performance.now(), statements: queries, ...(when ? { when } : {}), resolve, reject });
      this.#schedule();
    });
  }

  /** Runs `fn`, which may hold a transaction on the connection across turns; batches wait until it is done. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.#exclusive++;
    try {
      return await fn();
    } finally {
      this.#exclusive--;
      this.#schedule();
    }
  }

  /** Resolves once everything committed on the connection before the call is on disk. */
  sync(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#unsynced.push((error) => (error ? reject(error) : resolve()));
      this.#sync();
    });
  }

  /** Resolves once every queued write has been answered. */
  async stop(): Promise<void> {
    while (!this.#isIdle()) await new Promise<void>((resolve) => this.#idle.push(resolve));
    if (this.#walFd !== undefined) closeSync(this.#walFd);
    this.#walFd = undefined;
  }

  #isIdle(): boolean {
    return this.#queue.length === 0 && this.#syncs === 0 && this.#unsynced.length === 0 && this.#exclusive === 0;
  }

  #schedule(): void {
    if (this.#scheduled || this.#exclusive > 0 || this.#queue.length === 0) return this.#notifyIfIdle();
    this.#scheduled = true;
    // Let this turn's other requests join the batch.
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#exclusive > 0) return;
      while (this.#queue.length > 0) this.#runBatch(this.#queue.splice(0, MAX_BATCH));
      this.#sync();
    });
  }

  #runBatch(batch: Op[]): void {
    const results: Array<Result[] | undefined | { error: unknown }> = [];
    try {
      this.#begin.run();
      for (const op of batch) {
        try {
          if (op.when && !op.when()) results.push(undefined);
          else results.push(op.statements.length === 1 ? [this.#run(op.statements[0]!)] : this.#runAll(op.statements));
        } catch (error) {
          // A constraint error undoes only its own statement. After SQLITE_FULL or an I/O error
          // SQLite has rolled the whole transaction back: then nothing in the batch was written.
          if (!this.#raw.inTransaction) throw error;
          results.push({ error });
        }
      }
      this.#commit.run();
      this.#onCommit();
    } catch (error) {
      if (this.#raw.inTransaction) this.#rollback.run();
      for (const op of batch) op.reject(error);
      return;
    }
    this.#unsynced.push((syncError) => {
      if (!syncError) this.#observe?.(batch.length, (performance.now() - batch[0]!.at) / 1000);
      batch.forEach((op, i) => {
        const result = results[i];
        if (syncError) op.reject(syncError);
        else if (result && 'error' in result) op.reject(result.error);
        else op.resolve(result);
      });
    });
  }

  #run(query: CompiledQuery<unknown>): Result {
    const statement = this.#statement(query.sql);
    return statement.reader ? { rows: statement.all(...query.parameters), changes: 0 } : { rows: [], changes: statement.run(...query.parameters).changes };
  }

  /** A group under a savepoint: an error undoes the group's earlier statements too, and no others. */
  #runAll(queries: ReadonlyArray<CompiledQuery<unknown>>): Result[] {
    this.#savepoint.run();
    try {
      const results = queries.map((query) => this.#run(query));
      this.#release.run();
      return results;
    } catch (error) {
      if (this.#raw.inTransaction) {
        try {
          this.#rollbackToSavepoint.run();
          this.#release.run();
        } catch {
          // The group cannot be undone alone: undo the batch, so no part of the group commits.
          if (this.#raw.inTransaction) this.#rollback.run();
        }
      }
      throw error;
    }
  }

  #statement(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      // Prepared at first use, inside the caller's try: a statement that cannot compile fails alone.
      statement = this.#raw.prepare(sql);
      if (this.#statements.size >= MAX_STATEMENTS) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #sync(): void {
    if (this.#unsynced.length === 0) return this.#notifyIfIdle();
    if (this.#syncs >= MAX_SYNCS) return;
    const covered = this.#unsynced.splice(0);
    let fd: number;
    try {
      // Kept open: while the connection is open SQLite never deletes or replaces the WAL file.
      // Safe beside SQLite's own descriptors: it locks the database file and the -shm, never the
      // WAL, and closing a descriptor drops only the process's POSIX locks on that one file.
      fd = this.#walFd ??= openSync(this.#walPath, 'r');
    } catch (error) {
      for (const settle of covered) settle(error as Error);
      return this.#notifyIfIdle();
    }
    this.#syncs++;
    this.#syncFd(fd, (error) => {
      this.#syncs--;
      if (error && this.#walFd === fd) {
        // Opened afresh next time, in case the descriptor itself is what failed; closed once no sync uses it.
        this.#walFd = undefined;
        this.#retiredFds.push(fd);
      }
      if (this.#syncs === 0) for (const old of this.#retiredFds.splice(0)) closeSync(old);
      for (const settle of covered) settle(error ?? undefined);
      this.#sync();
    });
  }

  #notifyIfIdle(): void {
    if (this.#isIdle()) for (const resolve of this.#idle.splice(0)) resolve();
  }
}
