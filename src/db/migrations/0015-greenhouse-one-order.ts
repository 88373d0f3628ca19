import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * At most one Greenhouse order per tenant, person, test and completion url, held by a unique index
 * that concurrent send_test calls cannot race past (integrations/greenhouse/orders.ts). The index
 * is on `order_key`, the url's SHA-256: a url may be longer than PostgreSQL indexes. Caller API
 * assessments have no key, and nulls never collide.
 *
 * Duplicates made before this stay, untouched: any of them may be the one Greenhouse kept, and one
 * may have been taken. The first of each (the one a repeated send_test was answered with) gets the
 * key; the later ones keep none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assessments').addColumn('order_key', 'text').execute();
  const { rows } = await sql<{ analysis_id: string; tenant_id: string; external_id: string; assessment_type: number; webhook_url: string }>`
    select analysis_id, tenant_id, external_id, assessment_type, webhook_url from assessments
    where ordered_via = 'greenhouse' and webhook_url is not null
    order by created_at, analysis_id`.execute(db);
  const keyed = new Set<string>();
  for (const row of rows) {
    const key = createHash('sha256').update(row.webhook_url).digest('hex');
    const order = JSON.stringify([row.tenant_id, row.external_id, Number(row.assessment_type), key]);
    if (keyed.has(order)) continue;
    keyed.add(order);
    await sql`update assessments set order_key = ${key} where analysis_id = ${row.analysis_id}`.execute(db);
  }
  await db.schema
    .createIndex('assessments_one_order')
    .unique()
    .on('assessments')
    .columns(['tenant_id', 'external_id', 'assessment_type', 'order_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('assessments_one_order').execute();
  await db.schema.alterTable('assessments').dropColumn('order_key').execute();
}
