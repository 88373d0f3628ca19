import { sql, type Kysely } from 'kysely';

/**
 * Mail shared out by tenant and capped (src/mail). Each invitation keeps the address it was queued
 * for, lower-cased (`address_key`), so the cap per recipient is one index seek inside the queuing
 * transaction. Pending mail is indexed by (status, tenant_id, due_at), as webhook attempts are
 * (0009): the sender finds which tenants have mail due without reading any one tenant's backlog.
 * (tenant_id, kind, created_at) counts a tenant's invitations of the last minute. The index on
 * (status, due_at) goes: every lookup by status uses the new one's first column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_messages').addColumn('address_key', 'text').execute();
  await sql`update mail_messages set address_key = (
      select lower(c.email) from assessments a join candidates c on c.external_id = a.external_id where a.analysis_id = mail_messages.analysis_id)
    where kind = 'invitation'`.execute(db);
  await db.schema.createIndex('mail_messages_waiting').on('mail_messages').columns(['status', 'tenant_id', 'due_at']).execute();
  await db.schema.createIndex('mail_messages_by_tenant').on('mail_messages').columns(['tenant_id', 'kind', 'created_at']).execute();
  await db.schema.createIndex('mail_messages_by_address').on('mail_messages').columns(['tenant_id', 'address_key', 'created_at']).execute();
  await db.schema.dropIndex('mail_messages_due').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('mail_messages_due').on('mail_messages').columns(['status', 'due_at']).execute();
  await db.schema.dropIndex('mail_messages_by_address').execute();
  await db.schema.dropIndex('mail_messages_by_tenant').execute();
  await db.schema.dropIndex('mail_messages_waiting').execute();
  await db.schema.alterTable('mail_messages').dropColumn('address_key').execute();
}
