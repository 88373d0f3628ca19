import { DomainError } from '../domain/errors.js';
import { BUSY_RETRY_AFTER_SECONDS } from '../plugins/overload.js';

/**
 * One synchronous CPU-heavy job at a time (a PDF takes tens of milliseconds of the event loop),
 * with a bounded line of waiters. Between jobs the event loop serves everyone else, so a burst
 * of PDF requests slows PDFs, not the service; past the line, a PDF request gets 503.
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
    }
    this.#busy = true;
    try {
      return await job();
    } finally {
      const next = this.#waiting.shift();
      // Handing over through a macrotask lets requests that arrived meanwhile run first.
      if (next) setImmediate(next);
      else this.#busy = false;
    }
  }
}
