import type { CompiledQuery } from 'kysely';
import type { Store } from '../../src/db/database.js';

/**
 * Runs `fn` while counting the statements `store.db` runs, by kind: a statement counts for the
 * first kind whose test its SQL passes. `after`, when given, runs once, right after the first
 * statement of its kind has run and before its caller gets the rows: a change made between two
 * reads of one request.
 */
export async function countQueries<K extends string, T>(
  store: Store,
  kinds: Record<K, (sql: string) => boolean>,
  fn: () => Promise<T>,
  after?: { kind: K; run: () => Promise<unknown> },
): Promise<{ result: T; counts: Record<K, number> }> {
  const names = Object.keys(kinds) as K[];
  const counts = Object.fromEntries(names.map((k) => [k, 0])) as Record<K, number>;
  const executeQuery = store.db.executeQuery.bind(store.db);
  let pending = after;
  store.db.executeQuery = (async <R>(query: CompiledQuery<R>) => {
    const kind = names.find((k) => kinds[k](query.sql));
    if (kind) counts[kind]++;
    const rows = await executeQuery(query);
    if (pending && kind === pending.kind) {
      const { run } = pending;
      pending = undefined;
      await run();
    }
    return rows;
  }) as typeof store.db.executeQuery;
  try {
    return { result: await fn(), counts };
  } finally {
    delete (store.db as { executeQuery?: unknown }).executeQuery;
  }
}

/**
 * Runs `fn` while counting every statement run through `store.db`: its executor's, which query
 * builders' `execute` calls too (`countQueries` sees only statements run by `store.db.executeQuery`).
 */
export async function countStatements<T>(store: Store, fn: () => Promise<T>): Promise<{ result: T; count: number; sql: string[] }> {
  const executor = store.db.getExecutor();
  const executeQuery = executor.executeQuery.bind(executor);
  const sql: string[] = [];
  executor.executeQuery = ((query: CompiledQuery, ...rest: unknown[]) => {
    sql.push(query.sql);
    return (executeQuery as (...args: unknown[]) => unknown)(query, ...rest);
  }) as typeof executor.executeQuery;
  try {
    const result = await fn();
    return { result, count: sql.length, sql };
  } finally {
    delete (executor as { executeQuery?: unknown }).executeQuery;
  }
}
