import type { WaitingTenant } from './outbox-store.js';

export interface Want {
  tenantId: string;
  limit: number;
}

export interface Shares {
  wants: Want[];
  /** Whether a waiting tenant under its share is left with fewer slots than it could use. */
  short: boolean;
}

/**
 * How many of each waiting tenant's attempts to claim with `free` slots, none of a tenant past
 * `share` slots. Tenants holding fewer slots go first, and among equals the one waiting longest:
 * when a slow tenant's attempt ends, the slot goes to a tenant that holds none before it goes
 * back to that tenant's backlog. A tenant is given no more slots than it has attempts waiting.
 */
export function shareOut(waiting: readonly WaitingTenant[], held: (tenantId: string) => number, free: number, share: number): Shares {
  const order = [...waiting].sort((a, b) => held(a.tenantId) - held(b.tenantId) || (a.oldest < b.oldest ? -1 : a.oldest > b.oldest ? 1 : 0));
  const wants: Want[] = [];
  let left = free;
  let short = false;
  for (const w of order) {
    const could = Math.min(w.waiting, share - held(w.tenantId));
    const limit = Math.min(could, Math.max(0, left));
    if (limit < could) short = true;
    if (limit <= 0) continue;
    wants.push({ tenantId: w.tenantId, limit });
    left -= limit;
  }
  return { wants, short };
}

/** One walk of the tenants with attempts waiting, in tenant id order: after `after` when given, at most `max`. */
export type WalkRead = (options: { after?: string; max: number }) => Promise<WaitingTenant[]>;

/**
 * Walks of at most `max` waiting tenants. Past that many, the next walk goes on after the last
 * tenant seen and wraps round to the first, so every waiting tenant is looked at in turn rather
 * than the same `max` lowest ids each time.
 */
export class TenantWalk {
  readonly #read: WalkRead;
  readonly #max: number;
  #cursor: string | undefined;

  constructor(read: WalkRead, max: number) {
    this.#read = read;
    this.#max = max;
  }

  async next(): Promise<WaitingTenant[]> {
    const from = this.#cursor;
    const first = await this.#read(from === undefined ? { max: this.#max } : { after: from, max: this.#max });
    if (first.length === this.#max) {
      this.#cursor = first.at(-1)!.tenantId;
      return first;
    }
    this.#cursor = undefined;
    if (from === undefined) return first;
    const seen = new Set(first.map((w) => w.tenantId));
    const rest = await this.#read({ max: this.#max - first.length });
    const all = first.concat(rest.filter((w) => !seen.has(w.tenantId)));
    // Wrapped round and still full: the next walk goes on from here, not from the first again.
    this.#cursor = all.length === this.#max ? all.at(-1)!.tenantId : undefined;
    return all;
  }
}
