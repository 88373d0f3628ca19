import { onePerStore, type StoreCaches } from './store-caches.js';

/**
 * Collects the calls made in one turn of the event loop and hands them to `flush` together,
 * one result per item in order. A failed flush fails every item in it. With `maxInFlight`
 * flushes running, further calls wait and go together in the next one: under load, fewer
 * and larger batches.
 */
export class TurnBatcher<I, O> {
  #items: I[] = [];
  #waiting: Array<{ resolve(value: O): void; reject(error: unknown): void }> = [];
  #scheduled = false;
  #inFlight = 0;
  readonly #flush: (items: I[]) => Promise<O[]>;
  readonly #maxBatch: number;
  readonly #maxInFlight: number;

  constructor(flush: (items: I[]) => Promise<O[]>, { maxBatch = 500, maxInFlight = Infinity }: { maxBatch?: number; maxInFlight?: number } = {}) {
    this.#flush = flush;
    this.#maxBatch = maxBatch;
    this.#maxInFlight = maxInFlight;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#items.push(item);
      this.#waiting.push({ resolve, reject });
      if (this.#items.length >= this.#maxBatch) this.#drain();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#drain();
        });
      }
    });
  }

  #drain(): void {
    while (this.#items.length > 0 && this.#inFlight < this.#maxInFlight) {
      const items = this.#items.splice(0, this.#maxBatch);
      const waiting = this.#waiting.splice(0, items.length);
      this.#inFlight++;
      this.#flush(items)
        .then(
          (results) => waiting.forEach((w, i) => w.resolve(results[i]!)),
          (error: unknown) => waiting.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          this.#inFlight--;
          this.#drain();
        });
    }
  }
}

/** One TurnBatcher per store, made on first use: `submit(store, item)`. */
export function perStore<S extends { readonly caches: StoreCaches }, I, O>(
  flush: (store: S, items: I[]) => Promise<O[]>,
  options?: { maxInFlight?: number },
): (store: S, item: I) => Promise<O> {
  const batcherOf = onePerStore((store: S) => new TurnBatcher<I, O>((items) => flush(store, items), options));
  return (store, item) => batcherOf(store).submit(item);
}
