import { loadConfig, type Config } from '../config.js';
import { findTenant } from '../store/credentials.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { ProvisionError } from '../provision.js';

export class CliError extends Error {}

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

export function table(rows: Array<Record<string, unknown>>): string {
  if (rows.length === 0) return '(none)';
  const cols = Object.keys(rows[0]!);
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n');
}

export function isUserError(error: unknown): error is Error {
  return error instanceof CliError || error instanceof ProvisionError || (error instanceof Error && error.name === 'ConfigError');
}
