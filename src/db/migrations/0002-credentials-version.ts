import type { Kysely } from 'kysely';

/**
 * One row that every credential change (revoke, reset, disable) bumps in its own transaction.
 * Servers on SQLite poll it to drop their credential caches when the CLI or another process
 * changed something.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credentials_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ credentials_version: { id: number; version: number } }>).insertInto('credentials_version').values({ id: 1, version: 0 }).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credentials_version').execute();
}
