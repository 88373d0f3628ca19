import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { DomainError } from '../domain/errors.js';

/** Seconds a client is asked to wait when the server sheds load. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export interface ThreadLimits {
  /** Worker threads that run the jobs. */
  threads: number;
  /** Jobs that may wait for a thread; past that, 503. */
  queue: number;
}

/** What a job that finds the queue full is told: a 503 with this message and Retry-After. */
export interface Busy {
  message: string;
  retryAfterSeconds: number;
}

export interface ThreadOptions {
  /** Start threads on the first job, and let them end after this long idle; absent: start at once and stay. */
  idleMs?: number;
  /** A thread past these limits ends (its job fails) and another takes its place; the process goes on. */
  resourceLimits?: ResourceLimits;
}

/**
 * CPU-heavy jobs on worker threads of their own, so they never hold the event loop, with a
 * bounded queue: a job that finds it full is refused with 503 and Retry-After instead of waiting
 * without end. The threads take a structured-cloned task and give back a structured-cloned result.
 */
export class Threads<Task, Result> {
  readonly #pool: Piscina;
  readonly #busy: Busy;

  constructor(file: URL, limits: ThreadLimits, busy: Busy, options: ThreadOptions = {}) {
    this.#busy = busy;
    this.#pool = new Piscina({
      filename: file.href,
      minThreads: options.idleMs === undefined ? limits.threads : 0,
      maxThreads: limits.threads,
      maxQueue: limits.queue,
      // Piscina's default puts a job it could not hand out at the back of the line again, so under
      // sustained load the first jobs in line could wait until the load ended (seconds, with one thread).
      stricterFIFO: true,
      idleTimeout: options.idleMs ?? Number.MAX_SAFE_INTEGER,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
  }

  /** Jobs waiting for a thread right now. */
  get queued(): number {
    return this.#pool.queueSize;
  }

  /** Threads running now (they may be idle). */
  get threads(): number {
    return this.#pool.threads.length;
  }

  /** Runs `task` on a thread; a full queue is the 503 of `busy`. */
  async run(task: Task): Promise<Result> {
    try {
      return (await this.#pool.run(task)) as Result;
    } catch (error) {
      if (error instanceof Error && /^(Task queue is at limit|No task queue available)/.test(error.message)) {
        throw new DomainError('ServiceUnavailable', this.#busy.message, { retryAfterSeconds: this.#busy.retryAfterSeconds });
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }
}
