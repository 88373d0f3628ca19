import { LRUCache } from 'lru-cache';

/** One key's window: events counted in it, and when it ends (ms since the epoch). */
export interface Window {
  count: number;
  resetAt: number;
}

/** A slot taken before an attempt; given back if the attempt turns out not to be a failure. */
export interface Reservation {
  release(): void;
}

/**
 * Counts events per key in fixed one-minute windows and says when a key has had too many: failed
 * attempts per client, client and username, or username, and requests per API key. In memory, per
 * process, bounded: an attacker spraying keys evicts old entries rather than growing the heap.
 * Synchronous: a check on every API request awaits nothing.
 *
 * An attempt whose outcome takes time (a password check) reserves its slot before it starts,
 * so a burst of concurrent attempts cannot all pass the check before any of them has failed.
 */
export class WindowLimiter {
  readonly #windows: LRUCache<string, Window>;
  readonly #max: number;
  readonly #windowMs: number;

  constructor(max: number, windowMs = 60_000, capacity = 100_000) {
    this.#max = max;
    this.#windowMs = windowMs;
    this.#windows = new LRUCache({ max: capacity });
  }

  /** Seconds until `key` may try again, or 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    // Asked on every miss; usually nothing has failed at all.
    if (this.#windows.size === 0) return 0;
    const w = this.#windows.get(key);
    if (!w || w.resetAt <= now || w.count < this.#max) return 0;
    return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
  }

  /** Events a key may have in a window before `retryAfter` says wait. */
  get max(): number {
    return this.#max;
  }

  /** Counts one event for `key`; its window as it now stands. */
  count(key: string, now = Date.now()): Readonly<Window> {
    const w = this.#window(key, now);
    w.count++;
    return w;
  }

  /**
   * Takes one slot in every key at once, or none: returns the seconds to wait when any key is
   * full. A slot stays counted as a failure unless released.
   */
  reserve(keys: readonly string[], now = Date.now()): Reservation | number {
    const wait = Math.max(0, ...keys.map((k) => this.retryAfter(k, now)));
    if (wait > 0) return wait;
    const taken = keys.map((k) => {
      const w = this.#window(k, now);
      w.count++;
      return w;
    });
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        // A window that has since expired was replaced; the slot went with it.
        for (const w of taken) if (w.count > 0) w.count--;
      },
    };
  }

  #window(key: string, now: number): Window {
    let w = this.#windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + this.#windowMs };
      this.#windows.set(key, w);
    }
    return w;
  }
}
