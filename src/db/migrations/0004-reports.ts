import type { Kysely } from 'kysely';

/**
 * Reports: the nonce that signs an assessment's share links (a new one revokes them), whether the
 * candidate released the results, and per portal (API key) settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assessments').addColumn('report_nonce', 'text').execute();
  await db.schema.alterTable('assessments').addColumn('results_release', 'text').execute();
  await db.schema.alterTable('assessments').addColumn('results_released_at', 'text').execute();
  await db.schema
    .createTable('portal_settings')
    .addColumn('api_key_id', 'text', (c) => c.primaryKey().references('api_keys.id'))
    .addColumn('candidate_feedback', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('candidate_release', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portal_settings').execute();
  for (const column of ['results_released_at', 'results_release', 'report_nonce']) {
    await db.schema.alterTable('assessments').dropColumn(column).execute();
  }
}
