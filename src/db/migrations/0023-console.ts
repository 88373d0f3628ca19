import type { Kysely } from 'kysely';

/**
 * The console's people (src/tenancy/console-users*.ts), their one-time set-password links, their
 * sessions and the console's audit log (src/console). Links and sessions are stored as SHA-256,
 * never the token. E-mail addresses are lower-cased and unique across tenants: a sign-in needs
 * nothing else to find its user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_users_tenant').on('console_users').columns(['tenant_id', 'email']).execute();

  await db.schema
    .createTable('console_password_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('console_users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('console_password_links_user').on('console_password_links').column('user_id').execute();

  await db.schema
    .createTable('console_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('console_users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();

  await db.schema
    .createTable('console_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_audit_tenant_at').on('console_audit').columns(['tenant_id', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_audit').execute();
  await db.schema.dropTable('console_sessions').execute();
  await db.schema.dropTable('console_password_links').execute();
  await db.schema.dropTable('console_users').execute();
}
