import { LRUCache } from 'lru-cache';
import type { Store } from '../db/database.js';
import { onePerStore } from '../db/store-caches.js';

/** Which stored rows a render came from, as read for the request at hand. */
export interface RenderSource {
  analysisId: string;
  /** The columns the render depends on, joined: any change to them makes a new entry. */
  fingerprint: string;
}

/** A render, the fingerprint of the rows it was made from, and whose they are (to forget it with them). */
export interface Made<V> {
  value: V;
  fingerprint: string;
  externalId: string;
}

interface Entry {
  externalId: string;
  fingerprint: string;
  value: unknown;
  size: number;
}

/** Bytes of renders kept per store; past this the least recently used go first. */
export const RENDER_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * How long an entry may live. Every request reads its rows' fingerprint first, so a stale entry
 * is never served; the bound is on how long bytes of an assessment erased by another process (the CLI,
 * another instance) stay in this one's memory.
 */
export const RENDER_CACHE_TTL_MS = 60_000;

/** One entry per assessment and variant: a newer fingerprint replaces the older. */
const keyOf = (source: RenderSource, variant: string) => `${source.analysisId}\u0000${variant}`;

export class RenderCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #maxBytes: number;
  // Concurrent requests for the same render share one making of it; `since` is when it began.
  readonly #making = new Map<string, { promise: Promise<unknown>; since: number }>();
  // Each forgetCandidate is numbered; a candidate's latest number is kept while a making that
  // began before it is still going, since that making may show them (erased after its read).
  #forgets = 0;
  readonly #forgotten = new Map<string, number>();

  constructor({ maxBytes = RENDER_CACHE_BYTES, ttlMs = RENDER_CACHE_TTL_MS } = {}) {
    this.#maxBytes = maxBytes;
    // Purged on a timer, not only when next read: an expired entry leaves memory on time.
    this.#entries = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (e) => Math.max(1, e.size), ttl: ttlMs, ttlAutopurge: true });
  }

  /** The render kept for `source`, if any: nothing made, nothing awaited. */
  peek<V>(source: RenderSource, variant: string): V | undefined {
    return this.#kept(keyOf(source, variant), source.fingerprint);
  }

  #kept<V>(key: string, fingerprint: string): V | undefined {
    const hit = this.#entries.get(key);
    return hit && hit.fingerprint === fingerprint ? (hit.value as V) : undefined;
  }

  /**
   * The render for `source`: kept, or made by `make`. `make` reads the rows again and says which
   * fingerprint it rendered; the render is kept under that one, which may be newer than `source`'s
   * if a row changed in between. Undefined when `make` found nothing to render: nothing is kept.
   */
  async get<V>(source: RenderSource, variant: string, make: () => Promise<Made<V> | undefined>, sizeOf: (value: V) => number): Promise<V | undefined> {
    const key = keyOf(source, variant);
    const hit = this.#kept<V>(key, source.fingerprint);
    if (hit !== undefined) return hit;
    const pendingKey = `${key}\u0000${source.fingerprint}`;
    const pending = this.#making.get(pendingKey);
    if (pending) return pending.promise as Promise<V | undefined>;
    const since = this.#forgets;
    const made = make().then((m) => {
      if (!m) return undefined;
      const size = sizeOf(m.value);
      // One render larger than the whole cache is served, not kept; nor one of a candidate
      // forgotten while it was being made. Other candidates' makings are kept as usual.
      const forgottenAt = this.#forgotten.get(m.externalId);
      if (size < this.#maxBytes && !(forgottenAt !== undefined && forgottenAt > since)) {
        this.#entries.set(key, { externalId: m.externalId, fingerprint: m.fingerprint, value: m.value, size });
      }
      return m.value;
    });
    this.#making.set(pendingKey, { promise: made, since });
    try {
      return await made;
    } finally {
      this.#making.delete(pendingKey);
      this.#pruneForgotten();
    }
  }

  forgetCandidate(externalId: string): void {
    for (const [key, entry] of this.#entries.entries()) if (entry.externalId === externalId) this.#entries.delete(key);
    if (this.#making.size > 0) this.#forgotten.set(externalId, ++this.#forgets);
  }

  /** Drops the numbers no making still going began before: no one needs them any more. */
  #pruneForgotten(): void {
    if (this.#forgotten.size === 0) return;
    let oldest = Infinity;
    for (const { since } of this.#making.values()) oldest = Math.min(oldest, since);
    for (const [externalId, at] of this.#forgotten) if (at <= oldest) this.#forgotten.delete(externalId);
  }

  /** Candidates' numbers kept for makings still going (tests check that it empties). */
  get forgottenHeld(): number {
    return this.#forgotten.size;
  }

  /** Entries kept. */
  get size(): number {
    return this.#entries.size;
  }
}

/**
 * What completed assessments' results and reports render to, per store, reused while the rows
 * they came from are unchanged. Rendering a result or a report costs hundreds of microseconds to
 * tens of milliseconds; an ATS that polls results, or recruiters who open the same report, get
 * the bytes made the first time.
 */
export const renderCache: (store: Store) => RenderCache = onePerStore(() => new RenderCache());
