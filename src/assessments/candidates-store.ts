import { sql } from 'kysely';
import type { Store } from '../db/database.js';
import { prepared, read } from '../db/prepared.js';
import { PREPARE } from '../db/pg-prepared.js';
import type { Selectable } from 'kysely';
import type { CandidateTable } from '../db/schema.js';
import { perStore } from '../db/turn-batcher.js';
import { unnestColumns } from '../db/unnest.js';

export type CandidateRow = Selectable<CandidateTable>;

const COLUMNS = [
  'external_id',
  'tenant_id',
  'email',
  'first_name',
  'last_name',
  'preposition',
  'gender',
  'needs_to_update_data',
  'created_at',
  'updated_at',
] as const;

/** What creation writes; the rest has defaults. */
export type NewCandidate = Pick<CandidateRow, (typeof COLUMNS)[number]>;

const INTEGER_COLUMNS = new Set<string>(['gender', 'needs_to_update_data']);

const insertQuery = prepared((db, ...values: unknown[]) =>
  db
    .insertInto('candidates')
    .values(Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]])) as unknown as NewCandidate)
    .onConflict((oc) => oc.column('external_id').doNothing()),
);

/**
 * PostgreSQL: the candidates created in one turn go in as one statement, one round trip and
 * one commit. Rows come in as one array per column. Of two rows with the same ExternalId in
 * one batch the first wins, as the first of two racing requests would.
 */
async function insertBatch(store: Store, rows: NewCandidate[]): Promise<boolean[]> {
  const { names, arrays } = unnestColumns(rows, COLUMNS, INTEGER_COLUMNS);
  // One auto-committed statement on the shared handle, as a read is.
  const inserted = await read(
    store,
    sql<{ external_id: string }>`${sql.raw(PREPARE)}
    insert into candidates (${names})
    select * from unnest(${arrays})
    on conflict (external_id) do nothing
    returning external_id`,
  );
  const unclaimed = new Set(inserted.map((r) => r.external_id));
  return rows.map((r) => unclaimed.delete(r.external_id));
}

// Two batches in the database at once; the rest gather meanwhile, so a busy server sends fewer, larger ones.
const insertBatched = perStore(insertBatch, { maxInFlight: 2 });

/** Inserts unless the ExternalId exists anywhere; false means it did. Racing inserts: one wins. */
export async function insertCandidate(store: Store, row: NewCandidate): Promise<boolean> {
  if (store.dialect === 'postgres') {
    return insertBatched(store, row);
  }
  // On SQLite the writer worker batches statements itself.
  const { changes } = await store.execute(insertQuery(store.db, store.dialect, ...COLUMNS.map((c) => row[c])));
  return changes === 1;
}

const candidateById = prepared((db, externalId: string) => db.selectFrom('candidates').selectAll().where('external_id', '=', externalId));

const ownCandidateById = prepared((db, externalId: string, tenantId: string) =>
  db.selectFrom('candidates').selectAll().where('external_id', '=', externalId).where('tenant_id', '=', tenantId),
);

/** The tenant's own candidate; another tenant's reads as none. */
export async function findOwnCandidate(store: Store, tenantId: string, externalId: string): Promise<CandidateRow | undefined> {
  return (await read(store, ownCandidateById(store.db, store.dialect, externalId, tenantId)))[0];
}

export async function findCandidate(store: Store, externalId: string): Promise<CandidateRow | undefined> {
  return (await read(store, candidateById(store.db, store.dialect, externalId)))[0];
}
