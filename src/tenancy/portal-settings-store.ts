import type { Kysely } from 'kysely';
import type { Dialect, Store } from '../db/database.js';
import { prepared, read, run } from '../db/prepared.js';
import type { DB, PortalSettingsTable } from '../db/schema.js';

/** A portal's settings without its logo and webhook secrets, which only their own code reads. */
export type PortalSettings = Omit<
  PortalSettingsTable,
  'api_key_id' | 'updated_at' | 'logo' | 'webhook_secret_enc' | 'webhook_secret_previous_enc' | 'webhook_secret_previous_until'
>;
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
  webhook_signing: 0,
  translated_norms: 0,
};

const COLUMNS = Object.keys(DEFAULT_PORTAL_SETTINGS) as Array<keyof PortalSettings>;

const settingsOf = prepared((db, apiKeyId: string) => db.selectFrom('portal_settings').select(COLUMNS).where('api_key_id', '=', apiKeyId));

/** A portal's (API key's) settings; the defaults when it has none. */
export async function portalSettings(store: Store, apiKeyId: string): Promise<PortalSettings> {
  return (await read(store, settingsOf(store.db, store.dialect, apiKeyId)))[0] ?? DEFAULT_PORTAL_SETTINGS;
}

/** `portalSettings` inside the caller's transaction. */
export async function portalSettingsIn(trx: Kysely<DB>, dialect: Dialect, apiKeyId: string): Promise<PortalSettings> {
  return (await run(trx, settingsOf(trx, dialect, apiKeyId))).rows[0] ?? DEFAULT_PORTAL_SETTINGS;
}

export async function portalLogo(store: Store, apiKeyId: string): Promise<Logo | undefined> {
  const row = await store.db.selectFrom('portal_settings').select(['logo', 'logo_type', 'logo_hash']).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  if (!row?.logo || !row.logo_type || !row.logo_hash) return undefined;
  return { bytes: Buffer.from(row.logo, 'base64'), type: row.logo_type, hash: row.logo_hash };
}

/** Changes the given settings of a portal (and its logo, when given), leaving the others as they are. */
export async function updatePortalSettings(store: Store, apiKeyId: string, changes: Partial<PortalSettings>, logo?: Logo): Promise<PortalSettings> {
  return store.write(async (trx) => {
    const next = { ...(await portalSettingsIn(trx, store.dialect, apiKeyId)), ...changes, ...(logo ? { logo_type: logo.type, logo_hash: logo.hash } : {}) };
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

export interface WebhookSecrets {
  signing: boolean;
  current: string | null;
  previous: string | null;
  previousUntil: string | null;
}

/** A portal's sealed webhook secrets: the current one, and the one before it while its overlap lasts. */
export async function webhookSecrets(store: Store, apiKeyId: string): Promise<WebhookSecrets> {
  return secretsOf(store.db, apiKeyId);
}

async function secretsOf(db: Kysely<DB>, apiKeyId: string): Promise<WebhookSecrets> {
  const row = await db
    .selectFrom('portal_settings')
    .select(['webhook_signing', 'webhook_secret_enc', 'webhook_secret_previous_enc', 'webhook_secret_previous_until'])
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirst();
  return {
    signing: row?.webhook_signing === 1,
    current: row?.webhook_secret_enc ?? null,
    previous: row?.webhook_secret_previous_enc ?? null,
    previousUntil: row?.webhook_secret_previous_until ?? null,
  };
}

/** A new sealed secret; the one it replaces stays valid until `previousUntil` (null: not at all). */
export async function rotateWebhookSecret(store: Store, apiKeyId: string, sealed: string, previousUntil: string | null): Promise<void> {
  await store.write(async (trx) => {
    const now = new Date().toISOString();
    const current = (await secretsOf(trx, apiKeyId)).current;
    await trx
      .insertInto('portal_settings')
      .values({ api_key_id: apiKeyId, ...DEFAULT_PORTAL_SETTINGS, updated_at: now })
      .onConflict((oc) => oc.column('api_key_id').doNothing())
      .execute();
    await trx
      .updateTable('portal_settings')
      .set({
        webhook_secret_enc: sealed,
        webhook_secret_previous_enc: previousUntil && current ? current : null,
        webhook_secret_previous_until: previousUntil && current ? previousUntil : null,
        updated_at: now,
      })
      .where('api_key_id', '=', apiKeyId)
      .execute();
  });
}
