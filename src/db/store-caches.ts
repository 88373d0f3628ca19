/** A cache that may hold a candidate's data, so an erasure must reach it. */
export interface HoldsCandidates {
  forgetCandidate(externalId: string): void;
}

const holdsCandidates = (v: unknown): v is HoldsCandidates => typeof (v as Partial<HoldsCandidates> | null)?.forgetCandidate === 'function';

/**
 * The in-memory values that belong to one store (render and session caches, batchers, norm
 * groups). Kept on the store object, they go with it; an erasure reaches every one of them that
 * holds candidates' data without naming them.
 */
export class StoreCaches {
  readonly #made = new Map<object, unknown>();

  /** The value made for `key`, made by `make` on first use. */
  of<T>(key: object, make: () => T): T {
    if (!this.#made.has(key)) this.#made.set(key, make());
    return this.#made.get(key) as T;
  }

  forgetCandidate(externalId: string): void {
    for (const value of this.#made.values()) if (holdsCandidates(value)) value.forgetCandidate(externalId);
  }
}

/** What `make` gives for a store, made on first use and kept as long as the store is. */
export function onePerStore<S extends { readonly caches: StoreCaches }, T>(make: (store: S) => T): (store: S) => T {
  const key = {};
  return (store) => store.caches.of(key, () => make(store));
}
