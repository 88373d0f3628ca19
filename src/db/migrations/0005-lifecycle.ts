import type { Kysely } from 'kysely';

/**
 * The candidate data lifecycle and the portal's own face: expiry and cancellation, "prefer not to
 * say" for gender, retention per tenant, an audit of erasures without personal data, and each
 * portal's organisation, logo, colour, privacy statement and contact.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assessments').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('assessments').addColumn('cancelled_at', 'text').execute();
  await db.schema.createIndex('assessments_expires_at').on('assessments').column('expires_at').execute();
  await db.schema
    .alterTable('candidates')
    .addColumn('gender_asked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('tenants').addColumn('retention_days', 'integer').execute();
  for (const column of ['organisation_name', 'logo', 'logo_type', 'logo_hash', 'primary_colour', 'privacy_url', 'contact_email']) {
    await db.schema.alterTable('portal_settings').addColumn(column, 'text').execute();
  }
  await db.schema
    .createTable('erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('erased_at', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('erased_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('candidates', 'integer', (c) => c.notNull())
    .addColumn('assessments', 'integer', (c) => c.notNull())
    .addColumn('answers', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('erasures').execute();
  for (const column of ['contact_email', 'privacy_url', 'primary_colour', 'logo_hash', 'logo_type', 'logo', 'organisation_name']) {
    await db.schema.alterTable('portal_settings').dropColumn(column).execute();
  }
  await db.schema.alterTable('tenants').dropColumn('retention_days').execute();
  await db.schema.alterTable('candidates').dropColumn('gender_asked').execute();
  await db.schema.dropIndex('assessments_expires_at').execute();
  await db.schema.alterTable('assessments').dropColumn('cancelled_at').execute();
  await db.schema.alterTable('assessments').dropColumn('expires_at').execute();
}
