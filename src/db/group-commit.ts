/**
 * Group commit for the embedded SQLite store. Writes queue up and are committed together;
 * one sync of the log then makes every commit made before it durable, and only then are
 * their callers answered. So a 201 still means the row is on disk.
 *
 * The sync runs off the event loop and at most one is in flight. Writes that queue while it
 * runs are committed as soon as `eagerBatch` of them wait (the next sync covers them), so
 * clients do not all fall into one lockstep cycle that leaves the CPU idle during every sync.
 */
export type Transact<C> = <R>(fn: (ctx: C) => Promise<R>) => Promise<R>;

interface Pending<C> {
  at: number;
  op: (ctx: C) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Ack {
  ok(): void;
  fail(error: unknown): void;
}

export interface GroupCommitOptions {
  /** Makes everything committed so far durable. */
  sync?: () => Promise<void>;
  /** Most writes in one transaction. */
  maxBatch?: number;
  /** Queued writes that are committed without waiting for the sync in flight. */
  eagerBatch?: number;
  /** Told of each durable commit: how many writes it held, and how long the oldest waited for it. */
  observe?: (batchSize: number, seconds: number) => void;
}

export class GroupCommitter<C> {
  #queue: Array<Pending<C>> = [];
  #committing = false;
  #syncing = false;
  #unsynced: Ack[] = [];
  readonly #transact: Transact<C>;
  readonly #options: Required<Omit<GroupCommitOptions, 'observe'>>;
  readonly #observe: GroupCommitOptions['observe'];

  constructor(transact: Transact<C>, options: GroupCommitOptions = {}) {
    this.#transact = transact;
    const { observe, ...rest } = options;
    this.#options = { sync: async () => {}, maxBatch: 256, eagerBatch: 8, ...rest };
    this.#observe = observe;
  }

  submit<T>(op: (ctx: C) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ at: performance.now(), op, resolve: resolve as (v: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#committing || this.#queue.length === 0) return;
    if (this.#syncing && this.#queue.length < this.#options.eagerBatch) return;
    this.#committing = true;
    // Let this turn's other requests reach the queue first.
    setImmediate(() => void this.#commitQueued());
  }

  async #commitQueued(): Promise<void> {
    while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, this.#options.maxBatch));
    this.#committing = false;
    if (!this.#syncing) this.#startSync();
    this.#schedule();
  }

  async #commit(batch: Array<Pending<C>>): Promise<void> {
    try {
      const results = await this.#transact(async (ctx) => {
        const out: unknown[] = [];
        for (const p of batch) out.push(await p.op(ctx));
        return out;
      });
      const ok = () => {
        this.#observe?.(batch.length, (performance.now() - batch[0]!.at) / 1000);
        batch.forEach((p, i) => p.resolve(results[i]));
      };
      this.#unsynced.push({ ok, fail: (error) => batch.forEach((p) => p.reject(error)) });
    } catch (batchError) {
      if (batch.length === 1) {
        batch[0]!.reject(batchError);
        return;
      }
      // One failing operation must not fail its neighbours: retry each in its own transaction.
      for (const p of batch) await this.#commit([p]);
    }
  }

  #startSync(): void {
    if (this.#unsynced.length === 0) return;
    // A sync covers exactly the commits made before it starts.
    const acks = this.#unsynced.splice(0);
    this.#syncing = true;
    this.#options
      .sync()
      .then(
        () => acks.forEach((a) => a.ok()),
        (error: unknown) => acks.forEach((a) => a.fail(error)),
      )
      .finally(() => {
        this.#syncing = false;
        if (!this.#committing && this.#unsynced.length > 0) this.#startSync();
        this.#schedule();
      });
  }
}
