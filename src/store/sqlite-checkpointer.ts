import { Worker } from 'node:worker_threads';

/**
 * Checkpoints a served SQLite file from a worker thread with its own connection, so that
 * copying the WAL back into the database file, and the syncs that go with it, never stall the
 * event loop. The serving connection has auto-checkpoints off.
 */
export class SqliteCheckpointer {
  readonly #worker: Worker;

  constructor(path: string, everyMs: number) {
    this.#worker = new Worker(new URL('./sqlite-checkpoint-worker.js', import.meta.url), { workerData: { path, everyMs } });
    this.#worker.unref();
    // A failed worker only means the WAL grows until the next start checkpoints it.
    this.#worker.on('error', () => {});
  }

  /** A last checkpoint, then the worker exits. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    if (worker.threadId === -1) return;
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    await exited;
  }
}
