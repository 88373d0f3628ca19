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

/** What a refused job is told: a 503 (or 429, over its owner's share) with this message and Retry-After. */
export interface Busy {
  message: string;
  retryAfterSeconds: number;
}

export interface ThreadOptions {
  /** Start threads on the first job, and let them end after this long idle; absent: start at once and stay. */
  idleMs?: number;
  /** A thread past these limits ends (its job fails) and another takes its place; the process goes on. */
  resourceLimits?: ResourceLimits;
  /**
   * Share the waiting places between the jobs' owners (tenants): an owner holds at most half,
   * rounded up, of the places the other owners leave free; a job past that is refused with 429
   * and this answer. Absent: every job may take any free place.
   */
  overShare?: Busy;
}

/** The share of places that one owner holding `held` of `waiting` may hold: half, rounded up, of what the others leave. */
function placesFor(held: number, waiting: number, queue: number): number {
  return Math.ceil((queue - (waiting - held)) / 2);
}

interface Job<Task, Result> {
  task: Task;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/** One owner's jobs: those waiting, in order, those running, and when one of them last got a thread. */
interface Owner<Task, Result> {
  waiting: Job<Task, Result>[];
  running: number;
  turn: number;
}

/**
 * CPU-heavy jobs on worker threads of their own, so they never hold the event loop, with a
 * bounded line: a job that finds it full is refused with 503 and Retry-After instead of waiting
 * without end. The threads take a structured-cloned task and give back a structured-cloned result.
 *
 * The line is kept here, not in Piscina, so that a freed thread goes to the owners in turn: to the
 * owner running fewest jobs, among equals the one whose last job started longest ago, and within an
 * owner first come first served. A tenant with one job waits for a thread to free, not for another
 * tenant's backlog. Piscina gets a job only when a thread is free for it.
 */
export class Threads<Task, Result> {
  readonly #pool: Piscina;
  readonly #limits: ThreadLimits;
  readonly #busy: Busy;
  readonly #overShare: Busy | undefined;
  readonly #owners = new Map<string, Owner<Task, Result>>();
  #running = 0;
  #waiting = 0;
  #turns = 0;
  #closed = false;

  constructor(file: URL, limits: ThreadLimits, busy: Busy, options: ThreadOptions = {}) {
    this.#limits = limits;
    this.#busy = busy;
    this.#overShare = options.overShare;
    this.#pool = new Piscina({
      filename: file.href,
      minThreads: options.idleMs === undefined ? limits.threads : 0,
      maxThreads: limits.threads,
      // Never more jobs than threads reach Piscina; a few wait there while their thread starts.
      maxQueue: limits.threads,
      idleTimeout: options.idleMs ?? Number.MAX_SAFE_INTEGER,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
  }

  /** Jobs waiting for a thread right now. */
  get queued(): number {
    return this.#waiting;
  }

  /** Threads running now (they may be idle). */
  get threads(): number {
    return this.#pool.threads.length;
  }

  /** Runs `task` of `owner` on a thread; a full line is the 503 of `busy`, an owner past its share the 429 of `overShare`. */
  run(task: Task, owner = ''): Promise<Result> {
    if (this.#closed) return Promise.reject(new Error('the threads are closed'));
    const entry = this.#owners.get(owner) ?? { waiting: [], running: 0, turn: 0 };
    this.#owners.set(owner, entry);
    return new Promise<Result>((resolve, reject) => {
      const job = { task, resolve, reject };
      if (this.#running < this.#limits.threads && this.#waiting === 0) return this.#start(owner, entry, job);
      const refusal =
        this.#waiting >= this.#limits.queue
          ? new DomainError('ServiceUnavailable', this.#busy.message, { retryAfterSeconds: this.#busy.retryAfterSeconds })
          : this.#overShare && entry.waiting.length >= placesFor(entry.waiting.length, this.#waiting, this.#limits.queue)
            ? new DomainError('TooManyRequests', this.#overShare.message, { retryAfterSeconds: this.#overShare.retryAfterSeconds })
            : undefined;
      if (refusal) {
        this.#forgetIdle(owner, entry);
        return reject(refusal);
      }
      entry.waiting.push(job);
      this.#waiting++;
    });
  }

  #start(owner: string, entry: Owner<Task, Result>, job: Job<Task, Result>): void {
    this.#running++;
    entry.running++;
    entry.turn = ++this.#turns;
    // The thread is counted free, and the next job started, before the caller hears.
    const done = (): void => {
      this.#running--;
      entry.running--;
      this.#forgetIdle(owner, entry);
      this.#next();
    };
    void this.#pool.run(job.task).then(
      (result: Result) => {
        done();
        job.resolve(result);
      },
      (error: unknown) => {
        done();
        job.reject(error);
      },
    );
  }

  /** Gives free threads to waiting jobs, each to the owner whose turn it is. */
  #next(): void {
    while (!this.#closed && this.#waiting > 0 && this.#running < this.#limits.threads) {
      let pick: [string, Owner<Task, Result>] | undefined;
      for (const e of this.#owners) {
        if (e[1].waiting.length === 0) continue;
        if (!pick || e[1].running < pick[1].running || (e[1].running === pick[1].running && e[1].turn < pick[1].turn)) pick = e;
      }
      const [owner, entry] = pick!;
      this.#waiting--;
      this.#start(owner, entry, entry.waiting.shift()!);
    }
  }

  /** An owner with nothing running or waiting is forgotten: the map holds only owners with jobs. */
  #forgetIdle(owner: string, entry: Owner<Task, Result>): void {
    if (entry.running === 0 && entry.waiting.length === 0) this.#owners.delete(owner);
  }

  /** Refuses the jobs still waiting, and ends the threads (a running job fails). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const entry of this.#owners.values()) for (const job of entry.waiting.splice(0)) job.reject(new Error('the threads are closed'));
    this.#waiting = 0;
    await this.#pool.destroy();
  }
}
