import type { Kysely } from 'kysely';
import type { Store } from '../db/database.js';
import type { DB, PortalMailSettingsTable } from '../db/schema.js';

export type MailSettings = Omit<PortalMailSettingsTable, 'api_key_id' | 'updated_at'>;

/** Nothing sent unless asked, in English, from MAIL_FROM, with replies to the portal's contact. */
export const DEFAULT_MAIL_SETTINGS: MailSettings = {
  from_name: null,
  reply_to: null,
  language: 'en',
  send_invitation: 0,
  reminder_after_seconds: null,
  max_reminders: 0,
};

const COLUMNS = Object.keys(DEFAULT_MAIL_SETTINGS) as Array<keyof MailSettings>;

async function settingsOf(db: Kysely<DB>, apiKeyId: string): Promise<MailSettings> {
  return (await db.selectFrom('portal_mail_settings').select(COLUMNS).where('api_key_id', '=', apiKeyId).executeTakeFirst()) ?? DEFAULT_MAIL_SETTINGS;
}

/** A portal's mail settings; the defaults when it has none. */
export async function mailSettings(store: Store, apiKeyId: string): Promise<MailSettings> {
  return settingsOf(store.db, apiKeyId);
}

/** `mailSettings` inside the caller's transaction. */
export async function mailSettingsIn(trx: Kysely<DB>, apiKeyId: string): Promise<MailSettings> {
  return settingsOf(trx, apiKeyId);
}

/** Changes the given settings of a portal, leaving the others as they are. */
export async function updateMailSettings(store: Store, apiKeyId: string, changes: Partial<MailSettings>): Promise<MailSettings> {
  return store.write(async (trx) => {
    const next = { ...(await mailSettingsIn(trx, apiKeyId)), ...changes };
    const values = { ...next, updated_at: new Date().toISOString() };
    await trx
      .insertInto('portal_mail_settings')
      .values({ api_key_id: apiKeyId, ...values })
      .onConflict((oc) => oc.column('api_key_id').doUpdateSet(values))
      .execute();
    return next;
  });
}
