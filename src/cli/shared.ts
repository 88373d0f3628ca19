import { loadConfig, type Config } from '../config.js';
import { parseOrigin } from '../config.js';
import { findActiveKeys, findTenant } from '../tenancy/credentials-store.js';
import { openStore, type Store } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { ProvisionError } from '../tenancy/provision.js';
import { ConsoleUserError } from '../tenancy/console-users.js';
import { loadInstruments } from '../measurement/instruments/load.js';
import { ContentError, loadCompetences } from '../measurement/load.js';
import { NormError } from '../measurement/norm-groups.js';
import { BUILT_IN_CONTENT_DIR, COMPETENCES_FILE } from '../platform/paths.js';
import { loadServerKey, SecretBox } from '../security/secret-box.js';
import { rotateWebhookSecret } from '../tenancy/portal-settings-store.js';
import { newWebhookSecret, secretContext } from '../webhooks/signing.js';

export class CliError extends Error {}

/**
 * A new signing secret for the portal of `apiKeyId`, sealed with the server key and stored; the
 * one it replaces keeps signing until `previousUntil` (null: not at all). Returns the secret, to
 * be shown once.
 */
export async function issueWebhookSecret(store: Store, config: Config, apiKeyId: string, previousUntil: string | null): Promise<string> {
  const secret = newWebhookSecret();
  const box = new SecretBox(loadServerKey(config.encryptionKey, config.dataDir));
  await rotateWebhookSecret(store, apiKeyId, box.seal(secret, secretContext(apiKeyId)), previousUntil);
  return secret;
}

/** Runs `fn` against the configured database (migrated first, so a fresh one works), then closes it. */
export async function withStore<T>(fn: (store: Store, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = openStore(config.database);
  try {
    await migrateToLatest(store);
    return await fn(store, config);
  } finally {
    await store.close();
  }
}

export async function tenantId(store: Store, idOrName: string): Promise<string> {
  const tenant = await findTenant(store, idOrName);
  if (!tenant) throw new CliError(`No tenant with id or name "${idOrName}"`);
  return tenant.id;
}

export function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write((json ? JSON.stringify(value, null, 2) : text) + '\n');
}

/** Rows as aligned columns; true/false read yes/no, and nothing reads "-". */
export function table(rows: Array<Record<string, unknown>>): string {
  if (rows.length === 0) return '(none)';
  const cols = Object.keys(rows[0]!);
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n');
}

export function isUserError(error: unknown): error is Error {
  return (
    error instanceof CliError ||
    error instanceof ProvisionError ||
    error instanceof ConsoleUserError ||
    error instanceof NormError ||
    error instanceof ContentError ||
    (error instanceof Error && error.name === 'ConfigError')
  );
}

/**
 * The API key (portal) an option names: `--key` (id or prefix), or `--portal-domain` when exactly
 * one active key uses that domain.
 */
export async function portalKey(
  store: Store,
  opts: { key?: string; portalDomain?: string },
): Promise<{ id: string; tenant_id: string; portal_domain: string }> {
  if (!opts.key && !opts.portalDomain) throw new CliError('Name the portal with --portal-domain URL or --key KEY');
  const keys = await findActiveKeys(store, {
    ...(opts.key ? { idOrPrefix: opts.key } : {}),
    ...(opts.portalDomain ? { portalDomain: parseOrigin(opts.portalDomain, '--portal-domain') } : {}),
  });
  if (keys.length === 0) throw new CliError(`No active API key ${opts.key ? `"${opts.key}"` : `on ${opts.portalDomain}`}`);
  if (keys.length > 1) throw new CliError(`${keys.length} active API keys match; name one with --key (see key list)`);
  return keys[0]!;
}

/** Instruments and the competence model, as the server loads them. */
export function loadContent(config: Config) {
  const instruments = loadInstruments(config.contentDir ?? BUILT_IN_CONTENT_DIR);
  return { instruments, competences: loadCompetences(COMPETENCES_FILE, instruments) };
}
