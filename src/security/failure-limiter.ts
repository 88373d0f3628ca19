import { LRUCache } from 'lru-cache';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Counts failures per key (a client IP, a username) in fixed one-minute windows and says
 * when a key has had too many. In memory, per process, bounded: an attacker spraying keys
 * evicts old entries rather than growing the heap.
 */
export class FailureLimiter {
  readonly #windows: LRUCache<string, Window>;
  readonly #max: number;
  readonly #windowMs: number;

  constructor(maxFailures: number, windowMs = 60_000, capacity = 100_000) {
    this.#max = maxFailures;
    this.#windowMs = windowMs;
    this.#windows = new LRUCache({ max: capacity });
  }

  /** Seconds until `key` may try again, or 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    // Asked on every request; usually nothing has failed at all.
    if (this.#windows.size === 0) return 0;
    const w = this.#windows.get(key);
    if (!w || w.resetAt <= now || w.count < this.#max) return 0;
    return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
  }

  fail(key: string, now = Date.now()): void {
    const w = this.#windows.get(key);
    if (!w || w.resetAt <= now) this.#windows.set(key, { count: 1, resetAt: now + this.#windowMs });
    else w.count++;
  }
}
