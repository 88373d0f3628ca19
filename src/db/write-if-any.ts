import type { Kysely } from 'kysely';
import type { DB } from './schema.js';
import type { Store } from './store.js';

/** A select query: the probe's first row says whether there is anything to write. */
interface Probe {
  limit(n: number): { executeTakeFirst(): Promise<unknown> };
}

/**
 * Runs `write` in a transaction only when `probe` finds a row, and returns what it counts (0 when
 * it does not run). The read first makes a sweep over an idle table cost no write: no turn at
 * SQLite's one writer, no commit on PostgreSQL. `write` filters again, in its transaction.
 */
export async function writeIfAny(store: Store, probe: Probe, write: (trx: Kysely<DB>) => Promise<number>): Promise<number> {
  if ((await probe.limit(1).executeTakeFirst()) === undefined) return 0;
  return store.write(write);
}
