/**
 * Group commit for the embedded SQLite store: every write that arrives while a commit is
 * being prepared joins one transaction, so one fsync acknowledges many requests. A caller's
 * promise resolves only after COMMIT returned, so a 201 still means durable.
 */
export type Transact<C> = <R>(fn: (ctx: C) => Promise<R>) => Promise<R>;

interface Pending<C> {
  op: (ctx: C) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommitter<C> {
  #queue: Array<Pending<C>> = [];
  #running = false;
  readonly #transact: Transact<C>;
  readonly #maxBatch: number;

  constructor(transact: Transact<C>, maxBatch = 256) {
    this.#transact = transact;
    this.#maxBatch = maxBatch;
  }

  submit<T>(op: (ctx: C) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ op, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#running) {
        this.#running = true;
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      try {
        const results = await this.#transact(async (ctx) => {
          const out: unknown[] = [];
          for (const p of batch) out.push(await p.op(ctx));
          return out;
        });
        batch.forEach((p, i) => p.resolve(results[i]));
      } catch (batchError) {
        if (batch.length === 1) {
          batch[0]!.reject(batchError);
          continue;
        }
        // One failing operation must not fail its neighbours: retry each in its own transaction.
        for (const p of batch) {
          try {
            p.resolve(await this.#transact(p.op));
          } catch (error) {
            p.reject(error);
          }
        }
      }
    }
    this.#running = false;
  }
}
