import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('portal_domain', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('candidates')
    .addColumn('external_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('preposition', 'text', (c) => c.notNull())
    .addColumn('gender', 'integer', (c) => c.notNull())
    .addColumn('needs_to_update_data', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('assessments')
    .addColumn('analysis_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('external_id', 'text', (c) => c.notNull().references('candidates.external_id'))
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('portal_domain', 'text', (c) => c.notNull())
    .addColumn('assessment_type', 'integer', (c) => c.notNull())
    .addColumn('return_url', 'text')
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_username', 'text')
    .addColumn('webhook_password_enc', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scores', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('assessments_external_id').on('assessments').column('external_id').execute();

  await db.schema
    .createTable('assessment_answers')
    .addColumn('analysis_id', 'text', (c) => c.notNull().references('assessments.analysis_id'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('answered_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('assessment_answers_pk', ['analysis_id', 'item_id'])
    .execute();

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
  await db.schema.createIndex('webhook_deliveries_status').on('webhook_deliveries').column('status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_deliveries', 'assessment_answers', 'assessments', 'candidates', 'api_keys', 'api_users', 'tenants']) {
    await db.schema.dropTable(table).execute();
  }
}
