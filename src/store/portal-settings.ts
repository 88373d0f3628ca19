import type { Kysely } from 'kysely';
import type { Store } from './database.js';
import type { DB, PortalSettingsTable } from './schema.js';

/** A portal's settings without its logo, which only the logo route reads. */
export type PortalSettings = Omit<PortalSettingsTable, 'api_key_id' | 'updated_at' | 'logo'>;
export interface Logo {
  bytes: Buffer;
  type: string;
  hash: string;
}

export const DEFAULT_PORTAL_SETTINGS: PortalSettings = {
  candidate_feedback: 0,
  candidate_release: 0,
  organisation_name: null,
  logo_type: null,
  logo_hash: null,
  primary_colour: null,
  privacy_url: null,
  contact_email: null,
};

const COLUMNS = Object.keys(DEFAULT_PORTAL_SETTINGS) as Array<keyof PortalSettings>;

/** A portal's (API key's) settings; the defaults when it has none. */
export async function portalSettings(db: Kysely<DB>, apiKeyId: string): Promise<PortalSettings> {
  const row = await db.selectFrom('portal_settings').select(COLUMNS).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return row ?? DEFAULT_PORTAL_SETTINGS;
}

export async function portalLogo(db: Kysely<DB>, apiKeyId: string): Promise<Logo | undefined> {
  const row = await db.selectFrom('portal_settings').select(['logo', 'logo_type', 'logo_hash']).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  if (!row?.logo || !row.logo_type || !row.logo_hash) return undefined;
  return { bytes: Buffer.from(row.logo, 'base64'), type: row.logo_type, hash: row.logo_hash };
}

/** Changes the given settings of a portal (and its logo, when given), leaving the others as they are. */
export async function updatePortalSettings(store: Store, apiKeyId: string, changes: Partial<PortalSettings>, logo?: Logo): Promise<PortalSettings> {
  return store.write(async (trx) => {
    const next = { ...(await portalSettings(trx, apiKeyId)), ...changes, ...(logo ? { logo_type: logo.type, logo_hash: logo.hash } : {}) };
    // A logo removed (its hash cleared) takes its bytes with it.
    const bytes = logo ? { logo: logo.bytes.toString('base64') } : next.logo_hash === null ? { logo: null } : {};
    const values = { ...next, ...bytes, updated_at: new Date().toISOString() };
    await trx
      .insertInto('portal_settings')
      .values({ api_key_id: apiKeyId, ...values })
      .onConflict((oc) => oc.column('api_key_id').doUpdateSet(values))
      .execute();
    return next;
  });
}
