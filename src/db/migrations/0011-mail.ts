import type { Kysely } from 'kysely';

/**
 * The mail outbox and log (src/mail): one row per message to send, claimed by one instance when
 * due, retried on a transient failure, and kept as the log an operator reads. Rows go with their
 * assessment on erasure. And each portal's mail settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('analysis_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_attempt_at', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('recipient', 'text')
    .addColumn('smtp_reply', 'text')
    .execute();
  await db.schema.createIndex('mail_messages_due').on('mail_messages').columns(['status', 'due_at']).execute();
  await db.schema.createIndex('mail_messages_assessment').on('mail_messages').columns(['analysis_id', 'created_at']).execute();
  await db.schema
    .createTable('portal_mail_settings')
    .addColumn('api_key_id', 'text', (c) => c.primaryKey())
    .addColumn('from_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('send_invitation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reminder_after_seconds', 'integer')
    .addColumn('max_reminders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portal_mail_settings').execute();
  await db.schema.dropTable('mail_messages').execute();
}
