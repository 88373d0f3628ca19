import { sql, type Kysely } from 'kysely';

/**
 * Webhooks get a log of every attempt, automatic or manual, in place of one delivery row per
 * assessment; and portals can sign their webhooks (Standard Webhooks), with a secret that rotates
 * with an overlap. Existing deliveries become the automatic attempt of their assessment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('analysis_id', 'text', (c) => c.notNull().references('assessments.analysis_id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('attempted_at', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_analysis').on('webhook_attempts').column('analysis_id').execute();
  await db.schema.createIndex('webhook_attempts_status').on('webhook_attempts').column('status').execute();
  await sql`insert into webhook_attempts (id, analysis_id, kind, requested_by, status, created_at, claimed_at, claimed_by, attempted_at, duration_ms, response_status, error)
    select analysis_id, analysis_id, 'automatic', null, status, created_at, claimed_at, claimed_by, attempted_at, duration_ms, response_status, error
    from webhook_deliveries`.execute(db);
  await db.schema.dropTable('webhook_deliveries').execute();

  await db.schema
    .alterTable('portal_settings')
    .addColumn('webhook_signing', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const column of ['webhook_secret_enc', 'webhook_secret_previous_enc', 'webhook_secret_previous_until']) {
    await db.schema.alterTable('portal_settings').addColumn(column, 'text').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['webhook_secret_previous_until', 'webhook_secret_previous_enc', 'webhook_secret_enc', 'webhook_signing']) {
    await db.schema.alterTable('portal_settings').dropColumn(column).execute();
  }
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('analysis_id', 'text', (c) => c.primaryKey().references('assessments.analysis_id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('attempted_at', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .execute();
  await db.schema.dropTable('webhook_attempts').execute();
}
