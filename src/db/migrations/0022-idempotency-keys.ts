import type { Kysely } from 'kysely';

/**
 * Idempotency-Key on the caller API's creates (src/idempotency). One row per API key and key: the
 * key's SHA-256, never the key; the request's SHA-256, never the body; the response once there is
 * one. `external_id` names the candidate the response concerns, so an erasure removes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('claim_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key_hash'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
  await db.schema.createIndex('idempotency_keys_subject').on('idempotency_keys').columns(['tenant_id', 'external_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
