import { sql, type Kysely } from 'kysely';

/**
 * Each webhook attempt carries its assessment's tenant, and pending attempts are indexed by
 * (status, tenant_id, created_at). The dispatcher then finds which tenants have attempts waiting,
 * and each one's oldest, with a few index seeks (`store/outbox.pendingTenants`): it can pass over
 * a tenant that holds its share of places without reading that tenant's backlog. The index on
 * status alone goes: every lookup by status uses the new one's first column, and a claim no
 * longer sorts every pending attempt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_attempts')
    .addColumn('tenant_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update webhook_attempts set tenant_id = (select a.tenant_id from assessments a where a.analysis_id = webhook_attempts.analysis_id)
    where exists (select 1 from assessments a where a.analysis_id = webhook_attempts.analysis_id)`.execute(db);
  await db.schema.createIndex('webhook_attempts_waiting').on('webhook_attempts').columns(['status', 'tenant_id', 'created_at']).execute();
  await db.schema.dropIndex('webhook_attempts_status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('webhook_attempts_status').on('webhook_attempts').column('status').execute();
  await db.schema.dropIndex('webhook_attempts_waiting').execute();
  await db.schema.alterTable('webhook_attempts').dropColumn('tenant_id').execute();
}
