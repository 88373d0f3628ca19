/** What `make` gives for a store, made on first use and kept as long as the store is. */
export function onePerStore<S extends object, T>(make: (store: S) => T): (store: S) => T {
  const made = new WeakMap<S, T>();
  return (store) => {
    let value = made.get(store);
    if (value === undefined) made.set(store, (value = make(store)));
    return value;
  };
}
