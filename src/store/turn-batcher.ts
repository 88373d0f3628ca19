/**
 * Collects the calls made in one turn of the event loop and hands them to `flush` together,
 * one result per item in order. A failed flush fails every item in it.
 */
export class TurnBatcher<I, O> {
  #items: I[] = [];
  #waiting: Array<{ resolve(value: O): void; reject(error: unknown): void }> = [];
  readonly #flush: (items: I[]) => Promise<O[]>;
  readonly #maxBatch: number;

  constructor(flush: (items: I[]) => Promise<O[]>, maxBatch = 500) {
    this.#flush = flush;
    this.#maxBatch = maxBatch;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      if (this.#items.length === 0) setImmediate(() => this.#drain());
      this.#items.push(item);
      this.#waiting.push({ resolve, reject });
      if (this.#items.length >= this.#maxBatch) this.#drain();
    });
  }

  #drain(): void {
    if (this.#items.length === 0) return;
    const items = this.#items;
    const waiting = this.#waiting;
    this.#items = [];
    this.#waiting = [];
    this.#flush(items).then(
      (results) => waiting.forEach((w, i) => w.resolve(results[i]!)),
      (error: unknown) => waiting.forEach((w) => w.reject(error)),
    );
  }
}

/** One TurnBatcher per store, made on first use: `submit(store, item)`. */
export function perStore<S extends object, I, O>(flush: (store: S, items: I[]) => Promise<O[]>): (store: S, item: I) => Promise<O> {
  const batchers = new WeakMap<S, TurnBatcher<I, O>>();
  return (store, item) => {
    let batcher = batchers.get(store);
    if (!batcher) batchers.set(store, (batcher = new TurnBatcher((items) => flush(store, items))));
    return batcher.submit(item);
  };
}
