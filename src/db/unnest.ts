import { sql, type RawBuilder } from 'kysely';

/**
 * PostgreSQL: many rows as one bound array per column, for `insert … select from unnest(…)`:
 * one statement for the lot, still with bound parameters. `names` lists the columns in the
 * same order as `arrays`. A column a row leaves out binds null.
 */
export function unnestColumns<R>(
  rows: readonly R[],
  columns: ReadonlyArray<keyof R & string>,
  integerColumns: ReadonlySet<string>,
): { names: RawBuilder<unknown>; arrays: RawBuilder<unknown> } {
  return {
    names: sql.join(columns.map((c) => sql.ref(c))),
    arrays: sql.join(columns.map((c) => sql`${rows.map((r) => r[c] ?? null)}::${sql.raw(integerColumns.has(c) ? 'integer' : 'text')}[]`)),
  };
}
