import type { Kysely } from 'kysely';

/**
 * Results: what completion stores beyond the scale scores, the time spent per questionnaire
 * page, and norm groups with the one in force per instrument and per portal (API key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assessments').addColumn('competence_scores', 'text').execute();
  await db.schema.alterTable('assessments').addColumn('consistency', 'integer').execute();
  await db.schema.alterTable('assessments').addColumn('integrity_flags', 'text').execute();
  await db.schema.alterTable('assessments').addColumn('norm_group_id', 'text').execute();
  await db.schema.alterTable('assessments').addColumn('last_activity_at', 'text').execute();

  await db.schema
    .createTable('assessment_page_times')
    .addColumn('analysis_id', 'text', (c) => c.notNull().references('assessments.analysis_id'))
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('ms', 'integer', (c) => c.notNull())
    .addColumn('posts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('assessment_page_times_pk', ['analysis_id', 'page'])
    .execute();

  await db.schema
    .createTable('norm_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('assessment_type', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('sample_size', 'integer', (c) => c.notNull())
    .addColumn('collected_from', 'text')
    .addColumn('collected_to', 'text')
    .addColumn('illustrative', 'integer', (c) => c.notNull())
    .addColumn('norms', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('portal_norms')
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('assessment_type', 'integer', (c) => c.notNull())
    .addColumn('norm_group_id', 'text', (c) => c.notNull().references('norm_groups.id'))
    .addPrimaryKeyConstraint('portal_norms_pk', ['api_key_id', 'assessment_type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portal_norms').execute();
  await db.schema.dropTable('norm_groups').execute();
  await db.schema.dropTable('assessment_page_times').execute();
  for (const column of ['last_activity_at', 'norm_group_id', 'integrity_flags', 'consistency', 'competence_scores']) {
    await db.schema.alterTable('assessments').dropColumn(column).execute();
  }
}
