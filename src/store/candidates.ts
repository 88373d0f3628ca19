import type { Store } from './database.js';
import { prepared } from './prepared.js';
import type { CandidateTable } from './schema.js';

export type CandidateRow = CandidateTable;

const COLUMNS = ['external_id', 'tenant_id', 'email', 'first_name', 'last_name', 'preposition', 'gender', 'needs_to_update_data', 'created_at', 'updated_at'] as const;

const insertQuery = prepared((db, ...values: unknown[]) =>
  db
    .insertInto('candidates')
    .values(Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]])) as unknown as CandidateRow)
    .onConflict((oc) => oc.column('external_id').doNothing()),
);

/** Inserts unless the ExternalId exists anywhere; false means it did. Racing inserts: one wins. */
export async function insertCandidate(store: Store, row: CandidateRow): Promise<boolean> {
  const { changes } = await store.execute(insertQuery(store.db, store.dialect, ...COLUMNS.map((c) => row[c])));
  return changes === 1;
}

export async function findCandidate(store: Store, externalId: string): Promise<CandidateRow | undefined> {
  return store.db.selectFrom('candidates').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}
