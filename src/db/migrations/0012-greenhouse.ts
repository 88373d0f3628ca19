import type { Kysely } from 'kysely';

/**
 * Greenhouse's Assessment Partner API (src/integrations/greenhouse): a key per portal, stored as
 * its SHA-256 like API keys; on the assessment, which integration ordered it and how its
 * completion call is made (a bare PATCH, retried until it is taken, with the partner key as the
 * Basic username, sealed); on webhook attempts, when a scheduled retry falls due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('greenhouse_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  for (const column of ['ordered_via', 'webhook_style', 'webhook_username_enc']) {
    await db.schema.alterTable('assessments').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('webhook_attempts').addColumn('due_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').dropColumn('due_at').execute();
  for (const column of ['webhook_username_enc', 'webhook_style', 'ordered_via']) {
    await db.schema.alterTable('assessments').dropColumn(column).execute();
  }
  await db.schema.dropTable('greenhouse_keys').execute();
}
