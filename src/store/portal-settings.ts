import type { Kysely } from 'kysely';
import type { Store } from './database.js';
import type { DB, PortalSettingsTable } from './schema.js';

export type PortalSettings = Omit<PortalSettingsTable, 'api_key_id' | 'updated_at'>;

export const DEFAULT_PORTAL_SETTINGS: PortalSettings = { candidate_feedback: 0, candidate_release: 0 };

/** A portal's (API key's) settings; the defaults when it has none. */
export async function portalSettings(db: Kysely<DB>, apiKeyId: string): Promise<PortalSettings> {
  const row = await db.selectFrom('portal_settings').selectAll().where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return row ? { candidate_feedback: row.candidate_feedback, candidate_release: row.candidate_release } : DEFAULT_PORTAL_SETTINGS;
}

/** Changes the given settings of a portal, leaving the others as they are. */
export async function updatePortalSettings(store: Store, apiKeyId: string, changes: Partial<PortalSettings>): Promise<PortalSettings> {
  return store.write(async (trx) => {
    const next = { ...(await portalSettings(trx, apiKeyId)), ...changes };
    await trx
      .insertInto('portal_settings')
      .values({ api_key_id: apiKeyId, ...next, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('api_key_id').doUpdateSet({ ...next, updated_at: new Date().toISOString() }))
      .execute();
    return next;
  });
}
