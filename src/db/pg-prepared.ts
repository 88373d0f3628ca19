import type pg from 'pg';

/**
 * Marks a statement to run as a named prepared statement on PostgreSQL, so each connection
 * parses and plans it once rather than on every call. Only for statements whose text never
 * varies (values bound, batches as arrays) and whose RETURNING names its columns: a later
 * migration then cannot change what a cached plan returns.
 */
export const PREPARE = '/* prepare */';

/** Makes every client of the pool run statements that start with `PREPARE` by name. */
export function prepareMarkedStatements(pool: pg.Pool): void {
  // One name per distinct text, shared by all connections; pg prepares a name on a connection at its first use there.
  const names = new Map<string, string>();
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
      if (typeof text === 'string' && text.startsWith(PREPARE) && Array.isArray(values) && callback === undefined) {
        let name = names.get(text);
        if (name === undefined) names.set(text, (name = `assay_${names.size}`));
        return query({ name, text, values });
      }
      return query(text, values, callback);
    };
  });
}
