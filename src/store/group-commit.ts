/**
 * Group commit for the embedded SQLite store. Writes queue up and are committed together;
 * then one sync of the log makes them durable, and only then are their callers answered.
 * So a 201 still means the row is on disk.
 *
 * The sync runs off the event loop. While it runs the server keeps parsing, authenticating
 * and validating requests; their writes queue and are committed together as soon as the
 * sync is done. One commit and one sync per cycle, however many writes arrived, and no
 * commit ever happens during a sync (so a sync step may also checkpoint the log whole).
 */
export type Transact<C> = <R>(fn: (ctx: C) => Promise<R>) => Promise<R>;

interface Pending<C> {
  op: (ctx: C) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Ack {
  ok(): void;
  fail(error: unknown): void;
}

export class GroupCommitter<C> {
  #queue: Array<Pending<C>> = [];
  #busy = false;
  readonly #transact: Transact<C>;
  readonly #sync: () => Promise<void>;
  readonly #maxBatch: number;

  constructor(transact: Transact<C>, sync: () => Promise<void> = async () => {}, maxBatch = 256) {
    this.#transact = transact;
    this.#sync = sync;
    this.#maxBatch = maxBatch;
  }

  submit<T>(op: (ctx: C) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ op, resolve: resolve as (v: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#busy || this.#queue.length === 0) return;
    this.#busy = true;
    // Let this turn's other requests reach the queue first.
    setImmediate(() => void this.#cycle());
  }

  async #cycle(): Promise<void> {
    const acks: Ack[] = [];
    while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, this.#maxBatch), acks);
    if (acks.length > 0) {
      try {
        await this.#sync();
        for (const a of acks) a.ok();
      } catch (error) {
        for (const a of acks) a.fail(error);
      }
    }
    this.#busy = false;
    this.#schedule();
  }

  async #commit(batch: Array<Pending<C>>, acks: Ack[]): Promise<void> {
    try {
      const results = await this.#transact(async (ctx) => {
        const out: unknown[] = [];
        for (const p of batch) out.push(await p.op(ctx));
        return out;
      });
      acks.push({ ok: () => batch.forEach((p, i) => p.resolve(results[i])), fail: (error) => batch.forEach((p) => p.reject(error)) });
    } catch (batchError) {
      if (batch.length === 1) {
        batch[0]!.reject(batchError);
        return;
      }
      // One failing operation must not fail its neighbours: retry each in its own transaction.
      for (const p of batch) await this.#commit([p], acks);
    }
  }
}
