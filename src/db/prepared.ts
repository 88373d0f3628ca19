import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { Dialect } from './dialect.js';
import { PREPARE } from './pg-prepared.js';
import type { DB } from './schema.js';
import type { Store } from './store.js';

const SLOT = '\u0000assay-slot-';

/**
 * A Kysely query compiled once per dialect and re-used with new parameter values: the hot
 * paths skip building and compiling the query tree on every request. `build` must pass its
 * arguments straight into the query (no branching on them); they become bound parameters. It may
 * return a query builder or an `sql` template.
 * `named`: on PostgreSQL, also a named prepared statement (`pg-prepared.ts`), for a query that
 * names every column it returns.
 */
export function prepared<Args extends unknown[], R>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<R> | RawBuilder<R>,
  { named = false } = {},
): (db: Kysely<DB>, dialect: Dialect, ...args: Args) => CompiledQuery<R> {
  const templates = new Map<Dialect, { compiled: CompiledQuery<R>; slots: Array<number | undefined> }>();
  return (db, dialect, ...args) => {
    let t = templates.get(dialect);
    if (!t) {
      const query = build(db, ...(args.map((_, i) => `${SLOT}${i}`) as Args));
      const compiled = 'isRawBuilder' in query ? query.compile(db) : query.compile();
      const slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? Number(p.slice(SLOT.length)) : undefined));
      if (slots.filter((s) => s !== undefined).length !== args.length) throw new Error('prepared(): every argument must become one parameter');
      t = { compiled: named && dialect === 'postgres' ? { ...compiled, sql: `${PREPARE} ${compiled.sql}` } : compiled, slots };
      templates.set(dialect, t);
    }
    const { compiled, slots } = t;
    const parameters = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      parameters[i] = slot === undefined ? compiled.parameters[i] : args[slot];
    }
    return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
  };
}

/** Runs a compiled query in a transaction that `store.write` handed out (in src/db, on the engine's own handle too). */
export async function run<R>(trx: Kysely<DB>, query: CompiledQuery<R>): Promise<{ rows: R[]; changes: number }> {
  const result = await trx.executeQuery(query);
  return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0n) };
}

/** Reads with a prepared query or an `sql` template on the store's shared handle, outside any transaction. */
export async function read<R>(store: Pick<Store, 'db'>, query: CompiledQuery<R> | RawBuilder<R>): Promise<R[]> {
  return (await store.db.executeQuery('isRawBuilder' in query ? query.compile(store.db) : query)).rows;
}
