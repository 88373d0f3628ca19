import { randomUUID } from 'node:crypto';
import type { Store } from '../db/database.js';

/** What the console records: never a candidate's personal data, never a password or token. */
export type ConsoleAction =
  'sign-in' | 'sign-in.failed' | 'sign-out' | 'export' | 'assessment.cancel' | 'invitation.resend' | 'candidate.erase' | 'candidate.invite';

export interface AuditEntry {
  tenantId: string | null;
  userId: string | null;
  action: ConsoleAction;
  address: string | null;
}

export async function recordAudit(store: Store, entry: AuditEntry): Promise<void> {
  await store.write((trx) =>
    trx
      .insertInto('console_audit')
      .values({
        id: randomUUID(),
        tenant_id: entry.tenantId,
        user_id: entry.userId,
        action: entry.action,
        address: entry.address,
        at: new Date().toISOString(),
      })
      .execute(),
  );
}

/** A tenant's audit rows, newest first. */
export async function listAudit(store: Store, tenantId: string, limit = 100) {
  return store.db
    .selectFrom('console_audit')
    .select(['user_id', 'action', 'address', 'at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
}
