import { onePerStore } from '../db/store-caches.js';

/** One message on its way in this process. */
export class Send {
  readonly #controller = new AbortController();
  #committed = false;
  #end!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.#end = resolve));

  /** Aborted by an erasure before the message was committed to the relay: the sender drops it. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Called right after the last check that the message's row still exists: true when it may go on
   * to the relay. From then on an erasure waits for it instead of aborting it. Synchronous, so no
   * erasure can come between the answer and the commitment.
   */
  commit(rowExists: boolean): boolean {
    if (!rowExists || this.#controller.signal.aborted) return false;
    this.#committed = true;
    return true;
  }

  /** An erasure's part: aborts the send unless it is committed. */
  withdraw(): void {
    if (!this.#committed) this.#controller.abort();
  }

  end(): void {
    this.#end();
  }
}

/**
 * The messages this process has on their way, by assessment. An erasure deletes the rows, then
 * `settle`s their sends here: one not yet past its last check is aborted (it would find its row
 * gone anyway, but may be waiting on a slow relay), and one past it is waited for. So once an
 * erasure returns, this process sends nothing more to the erased candidate.
 */
export class SendsInFlight {
  readonly #sends = new Map<string, Set<Send>>();

  begin(analysisId: string): Send {
    const send = new Send();
    let set = this.#sends.get(analysisId);
    if (!set) this.#sends.set(analysisId, (set = new Set()));
    set.add(send);
    void send.ended.then(() => {
      set.delete(send);
      if (set.size === 0 && this.#sends.get(analysisId) === set) this.#sends.delete(analysisId);
    });
    return send;
  }

  async settle(analysisIds: readonly string[]): Promise<void> {
    const sends = analysisIds.flatMap((id) => [...(this.#sends.get(id) ?? [])]);
    for (const send of sends) send.withdraw();
    await Promise.all(sends.map((s) => s.ended));
  }
}

/** The store's sends: the mailer and an erasure on the same store meet here. */
export const sendsInFlight = onePerStore(() => new SendsInFlight());
