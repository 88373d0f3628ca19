import type { FastifyBaseLogger } from 'fastify';

export interface OutboxLoopOptions {
  /** Which database holds the outbox: on SQLite one server owns the file. */
  dialect: 'sqlite' | 'postgres';
  pollIntervalMs: number;
  /** When a claim made before this time belongs to a process that is gone. */
  staleCutoff: () => string;
  /** Frees claims made before the cutoff; logs its own failure and never rejects. */
  sweep: (claimedBefore: string) => Promise<void>;
  /** One look at the outbox: true when another should follow at once. */
  pass: () => Promise<boolean>;
  log: FastifyBaseLogger;
  /** Logged when a look fails; the poll looks again. */
  pausedMessage: string;
}

/**
 * The loop under an outbox sender (the mailer, the webhook dispatcher): looks at the outbox when
 * woken and on a poll, one look at a time (a wake during a look runs one more after it), sweeps
 * claims left by stopped processes, and tracks the work under way so that a stop can wait for it.
 * What a look claims and how it is sent are the sender's.
 */
export class OutboxLoop {
  readonly #options: OutboxLoopOptions;
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #again = false;
  #started = false;
  #stopped = false;
  // The drain under way, if any: stop waits for it, so no claim commits after the store closes.
  #draining: Promise<void> = Promise.resolve();
  // Looks at the outbox finished: one that began after an event has seen what that event left.
  #passes = 0;

  constructor(options: OutboxLoopOptions) {
    this.#options = options;
  }

  /** Sweeps, then looks on every poll and at once. */
  async start(): Promise<void> {
    const { dialect, pollIntervalMs, staleCutoff, sweep } = this.#options;
    // On SQLite one server owns the file, so anything still claimed at start was cut off.
    await sweep(dialect === 'sqlite' ? new Date().toISOString() : staleCutoff());
    this.#started = true;
    this.#timer = setInterval(() => {
      void sweep(staleCutoff());
      this.wake();
    }, pollIntervalMs);
    this.#timer.unref();
    this.wake();
  }

  /** Past the start sweep: claims may be handed to the loop's work. */
  get started(): boolean {
    return this.#started;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  get passes(): number {
    return this.#passes;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    this.#draining = this.#drain();
  }

  /** Counts `work` in flight until it settles, then runs `after`. `work` must not reject: nothing else awaits it. */
  track(work: Promise<void>, after: () => void): void {
    const tracked = work.finally(() => {
      this.#inFlight.delete(tracked);
      after();
    });
    this.#inFlight.add(tracked);
  }

  /** Stops looking, waits for the look under way, then for the work in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#draining;
    await Promise.allSettled([...this.#inFlight]);
  }

  async #drain(): Promise<void> {
    try {
      do {
        this.#again = false;
        if (await this.#options.pass()) this.#again = true;
        this.#passes += 1;
      } while (this.#again && !this.#stopped);
    } catch (err) {
      this.#options.log.warn({ err }, this.#options.pausedMessage);
    } finally {
      this.#running = false;
    }
  }
}
