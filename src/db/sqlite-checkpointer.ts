import { Worker } from 'node:worker_threads';

/** Runs `fn` while no batch of writes runs (`SqliteWriter.exclusive`). */
export type Pause = (fn: () => Promise<void>) => Promise<void>;

/**
 * Checkpoints a served SQLite file from a worker thread with its own connection, so that
 * copying the WAL back into the database file, and the syncs that go with it, never stall the
 * event loop. The serving connection has auto-checkpoints off.
 *
 * A checkpoint that runs beside the writes never quite finishes: frames keep arriving while
 * it copies. SQLite starts the log afresh only after a checkpoint that copied every frame, so
 * each round has two steps: the bulk of the log is copied while writes go on, then writes
 * pause (`pause`) while the worker copies the few frames that arrived meanwhile. The next
 * write then starts the log from the beginning, so it stays small and is overwritten in place.
 */
export class SqliteCheckpointer {
  readonly #worker: Worker;
  #finishing: (() => void) | undefined;
  #exited = false;
  #stopping = false;

  constructor(path: string, everyMs: number, pause: Pause) {
    const worker = new Worker(new URL('./sqlite-checkpoint-worker.js', import.meta.url), { workerData: { path, everyMs } });
    this.#worker = worker;
    worker.on('message', (message: 'copied' | 'finished') => {
      if (message === 'copied') void pause(() => this.#finish());
      else this.#release();
    });
    // A failed worker only means the WAL grows until the next start checkpoints it; writes must not wait for it.
    worker.on('error', () => {});
    worker.on('exit', () => {
      this.#exited = true;
      this.#release();
    });
    // After the listeners: adding a message listener holds the process open again.
    worker.unref();
  }

  /** Writes are paused until the worker answers, so until then it holds the process open. */
  #finish(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.#exited) return resolve();
      this.#finishing = resolve;
      this.#worker.ref();
      this.#worker.postMessage('finish');
    });
  }

  #release(): void {
    const resolve = this.#finishing;
    this.#finishing = undefined;
    if (!resolve) return;
    if (!this.#stopping) this.#worker.unref();
    resolve();
  }

  /** A last checkpoint, then the worker exits. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    if (this.#exited) return;
    this.#stopping = true;
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    await exited;
  }
}
