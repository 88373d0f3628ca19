import type { Store } from '../db/database.js';
import { sha256 } from '../security/tokens.js';

/**
 * An ATS order's key: its completion URL as SHA-256, as migration 0015 keys earlier orders. An
 * ATS's completion URL names one test instance it sent, so an order that repeats the person, test
 * and URL is a retry of that order, not a new one; the unique index on the key makes sure of that
 * whatever the timing.
 */
export const orderKey = (url: string): string => sha256(url);

/** The assessment an earlier order made for this person, test and completion URL, if any. */
export async function findOrderForUrl(
  store: Store,
  order: { tenantId: string; externalId: string; assessmentType: number; url: string },
): Promise<string | undefined> {
  const row = await store.db
    .selectFrom('assessments')
    .select('analysis_id')
    .where('tenant_id', '=', order.tenantId)
    .where('external_id', '=', order.externalId)
    .where('assessment_type', '=', order.assessmentType)
    .where('order_key', '=', orderKey(order.url))
    .executeTakeFirst();
  return row?.analysis_id;
}

/**
 * The ATS says where this test is to be sent: a reused candidate's stored address follows it,
 * so the invitation, which is addressed when it is sent, goes there. Names stay as stored.
 */
export async function followEmail(store: Store, tenantId: string, externalId: string, email: string): Promise<void> {
  await store.write((trx) =>
    trx
      .updateTable('candidates')
      .set({ email, updated_at: new Date().toISOString() })
      .where('tenant_id', '=', tenantId)
      .where('external_id', '=', externalId)
      .where('email', '!=', email)
      .execute(),
  );
}
