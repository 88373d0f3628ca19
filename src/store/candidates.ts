import type { Store } from './database.js';
import type { CandidateTable } from './schema.js';

export type CandidateRow = CandidateTable;

/** Inserts unless the ExternalId exists anywhere; false means it did. Racing inserts: one wins. */
export async function insertCandidate(store: Store, row: CandidateRow): Promise<boolean> {
  return store.write(async (trx) => {
    const result = await trx
      .insertInto('candidates')
      .values(row)
      .onConflict((oc) => oc.column('external_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  });
}

export async function findCandidate(store: Store, externalId: string): Promise<CandidateRow | undefined> {
  return store.db.selectFrom('candidates').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}
