import type { Kysely } from 'kysely';

/**
 * The dispatcher's claim reads the oldest pending attempts. With an index on status alone, the
 * database sorted every pending attempt for each claim (3.5–5 ms at 50,000 pending on SQLite,
 * on the connection that writes): a backlog made each claim slower. On (status, created_at) the
 * claim reads the first rows in order. The new index serves every lookup by status the old one did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('webhook_attempts_status_created').on('webhook_attempts').columns(['status', 'created_at']).execute();
  await db.schema.dropIndex('webhook_attempts_status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('webhook_attempts_status').on('webhook_attempts').column('status').execute();
  await db.schema.dropIndex('webhook_attempts_status_created').execute();
}
