import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/**
 * Messages to and from the worker. A batch's operations travel as one JSON string, and the
 * replies that one sync made durable as another: structured cloning hundreds of small values
 * cost more than the inserts did.
 * So parameters must be JSON values (strings, finite numbers, booleans, null), as every
 * value Assay stores is.
 */
export type WriterRequest =
  | { kind: 'batch'; seq: number; prepare?: Array<[number, string]>; ops: string }
  | { kind: 'pragma'; seq: number; sql: string }
  | { kind: 'stop' };

/** A write's change count, a read's rows, or the statement's error. */
export type OpResult = number | { rows: unknown[] } | { error: { code?: string; message: string } };
export type WriterReply = { seq: number; results?: OpResult[]; failed?: { code?: string; message: string } };

interface Op {
  id: number;
  params: readonly unknown[];
  resolve(result: { rows: unknown[]; changes: number }): void;
  reject(error: unknown): void;
}

/** Batches the worker may hold at once: while it syncs, the next ones wait in its queue. */
const MAX_IN_FLIGHT = 3;
const MAX_BATCH = 256;

function sqliteError(e: { code?: string; message: string }): Error {
  return Object.assign(new Error(e.message), { name: 'SqliteError', ...(e.code && { code: e.code }) });
}

/**
 * The main thread's side of the SQLite writer (`sqlite-writer-worker.ts`). Single statements
 * queue here and go to the worker in batches, so inserting rows and writing the WAL leave the
 * event loop. Writes that need a transaction with application logic in it run on the main
 * connection through `exclusive`, while the worker holds no batch: two connections never wait
 * on each other's write lock.
 */
export class SqliteWriter {
  readonly #path: string;
  readonly #checkpointEveryMs: number;
  #worker: Worker | undefined;
  readonly #sqlIds = new Map<string, number>();
  #unprepared: Array<[number, string]> = [];
  #queue: Op[] = [];
  readonly #inFlight = new Map<number, Op[]>();
  readonly #pragmas = new Map<number, { resolve(): void; reject(error: unknown): void }>();
  #seq = 0;
  #scheduled = false;
  #exclusiveWaiting: Array<() => void> = [];
  #exclusiveActive = 0;

  constructor(path: string, checkpointEveryMs: number) {
    this.#path = path;
    this.#checkpointEveryMs = checkpointEveryMs;
  }

  execute<R>(query: CompiledQuery<R>): Promise<{ rows: R[]; changes: number }> {
    return new Promise((resolve, reject) => {
      let id = this.#sqlIds.get(query.sql);
      if (id === undefined) {
        id = this.#sqlIds.size;
        this.#sqlIds.set(query.sql, id);
        this.#unprepared.push([id, query.sql]);
      }
      this.#queue.push({ id, params: query.parameters, resolve: resolve as Op['resolve'], reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // Let this turn's other requests join the batch.
        setImmediate(() => {
          this.#scheduled = false;
          this.#pump();
        });
      }
    });
  }

  /** Runs `fn` while the worker holds no batch; batches wait until it is done. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#exclusiveActive > 0 && this.#queue.length === 0) this.#exclusiveActive++;
    else
      await new Promise<void>((resolve) => {
        this.#exclusiveWaiting.push(resolve);
        this.#pump();
      });
    try {
      return await fn();
    } finally {
      if (--this.#exclusiveActive === 0) this.#pump();
    }
  }

  /** Applies a connection setting (`query_only = ON`, say) to the worker's connection. */
  pragma(sql: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const seq = ++this.#seq;
      this.#pragmas.set(seq, { resolve, reject });
      this.#ensureWorker().postMessage({ kind: 'pragma', seq, sql } satisfies WriterRequest);
    });
  }

  async stop(): Promise<void> {
    while (this.#queue.length > 0 || this.#inFlight.size > 0 || this.#exclusiveActive > 0) await new Promise((r) => setTimeout(r, 1));
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'stop' } satisfies WriterRequest);
    await exited;
  }

  #pump(): void {
    if (this.#exclusiveActive > 0) return;
    if (this.#exclusiveWaiting.length > 0) {
      if (this.#inFlight.size > 0) return;
      const waiting = this.#exclusiveWaiting.splice(0);
      this.#exclusiveActive = waiting.length;
      for (const go of waiting) go();
      return;
    }
    while (this.#inFlight.size < MAX_IN_FLIGHT && this.#queue.length > 0) this.#send(this.#queue.splice(0, MAX_BATCH));
  }

  #send(batch: Op[]): void {
    const seq = ++this.#seq;
    this.#inFlight.set(seq, batch);
    const request: WriterRequest = { kind: 'batch', seq, ops: JSON.stringify(batch.map((op) => [op.id, op.params])) };
    const worker = this.#ensureWorker();
    if (this.#unprepared.length > 0) {
      request.prepare = this.#unprepared;
      this.#unprepared = [];
    }
    worker.postMessage(request);
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./sqlite-writer-worker.js', import.meta.url), {
      workerData: { path: this.#path, checkpointEveryMs: this.#checkpointEveryMs },
    });
    worker.unref();
    worker.on('message', (replies: string) => {
      for (const reply of JSON.parse(replies) as WriterReply[]) this.#settle(reply);
    });
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (this.#worker !== worker) return;
      // A new worker prepares every statement again. What was in flight may or may not have
      // committed; its callers hear of an I/O failure, as after a crash.
      this.#worker = undefined;
      this.#unprepared = [...this.#sqlIds].map(([sql, id]) => [id, sql]);
      for (const seq of [...this.#inFlight.keys(), ...this.#pragmas.keys()]) this.#settle({ seq, failed: { code: 'EIO', message: 'the SQLite writer stopped' } });
    });
    this.#worker = worker;
    return worker;
  }

  #settle(reply: WriterReply): void {
    const pragma = this.#pragmas.get(reply.seq);
    if (pragma) {
      this.#pragmas.delete(reply.seq);
      if (reply.failed) pragma.reject(sqliteError(reply.failed));
      else pragma.resolve();
      return;
    }
    const batch = this.#inFlight.get(reply.seq);
    if (!batch) return;
    this.#inFlight.delete(reply.seq);
    batch.forEach((op, i) => {
      const result = reply.results?.[i];
      if (reply.failed || result === undefined) op.reject(sqliteError(reply.failed ?? { message: 'no result' }));
      else if (typeof result === 'number') op.resolve({ rows: [], changes: result });
      else if ('error' in result) op.reject(sqliteError(result.error));
      else op.resolve({ rows: result.rows, changes: 0 });
    });
    this.#pump();
  }
}
