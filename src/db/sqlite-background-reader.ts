import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/**
 * Runs reads on a worker thread with its own connection to the SQLite file. better-sqlite3 is
 * synchronous: a count over a million rows on the serving connection would hold every request
 * for its whole duration. Started at first use; most servers never make such a read.
 */
export class SqliteBackgroundReader {
  readonly #path: string;
  #worker: Worker | undefined;
  #next = 0;
  readonly #waiting = new Map<number, { resolve(rows: unknown[]): void; reject(error: Error): void }>();

  constructor(path: string) {
    this.#path = path;
  }

  read<R>(query: CompiledQuery<R>): Promise<R[]> {
    const worker = this.#start();
    const id = this.#next++;
    return new Promise<R[]>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      worker.postMessage({ id, sql: query.sql, params: query.parameters });
    });
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./sqlite-read-worker.js', import.meta.url), { workerData: { path: this.#path } });
    worker.on('message', (message: { id: number; rows?: unknown[]; error?: string }) => {
      const waiting = this.#waiting.get(message.id);
      this.#waiting.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.rows ?? []);
    });
    const fail = (error: Error) => {
      for (const w of this.#waiting.values()) w.reject(error);
      this.#waiting.clear();
      // The next read starts a fresh thread.
      this.#worker = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the background reader stopped')));
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Unreferenced, its exit would not keep the process alive for the await below.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }
}
