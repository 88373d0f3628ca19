import { DomainError } from '../domain/errors.js';
import { BUSY_RETRY_AFTER_SECONDS } from '../plugins/overload.js';

/**
 * One synchronous CPU-heavy job at a time (a PDF takes tens of milliseconds of the event loop),
 * with a bounded line of waiters; past the line, a PDF request gets 503.
 *
 * Every job starts in a macrotask of its own, even when none is running. Requests read in the
 * same poll phase run one after another in that phase: if each started its job at once, ten PDF
 * requests arriving together would render back to back in one event-loop turn, holding timers
 * and every other client for half a second, and the event-loop-delay guard would then shed the
 * whole service (bench/README.md). Between jobs the event loop serves everyone else, so a burst
 * of PDF requests slows PDFs, not the service.
 */
export class Turns {
  #busy = false;
  readonly #waiting: Array<() => void> = [];
  constructor(readonly maxWaiting: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#busy) {
      if (this.#waiting.length >= this.maxWaiting) {
        throw new DomainError('ServiceUnavailable', 'Too many reports are being rendered; retry shortly', { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#busy = true;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    try {
      return await job();
    } finally {
      const next = this.#waiting.shift();
      // The next job keeps the turn, and starts in a later macrotask.
      if (next) setImmediate(next);
      else this.#busy = false;
    }
  }
}
