import { loadConfig } from '../src/config.js';
import { openStore } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

/**
 * The bulk path for --preload: candidates written straight through the store in large
 * transactions (a million HTTP calls would measure the load generator, not the database).
 */
export async function preloadCandidates(env: Record<string, string>, tenantId: string, count: number): Promise<number> {
  const started = Date.now();
  const store = openStore(loadConfig(env).database);
  try {
    await migrateToLatest(store);
    const batch = store.dialect === 'sqlite' ? 10_000 : 2_000;
    const at = new Date().toISOString();
    for (let from = 0; from < count; from += batch * 10) {
      await store.db.transaction().execute(async (trx) => {
        for (let b = from; b < Math.min(count, from + batch * 10); b += batch) {
          const rows = [];
          for (let i = b; i < Math.min(count, b + batch); i++) {
            rows.push({
              external_id: `preload-${i.toString(36).padStart(6, '0')}`,
              tenant_id: tenantId,
              email: `p${i}@example.com`,
              first_name: 'Pre',
              last_name: 'Loaded',
              preposition: '',
              gender: i % 4,
              needs_to_update_data: 0,
              created_at: at,
              updated_at: at,
            });
          }
          // Chunks keep each INSERT under the dialects' bound-parameter limits.
          for (let c = 0; c < rows.length; c += 500)
            await trx
              .insertInto('candidates')
              .values(rows.slice(c, c + 500))
              .execute();
        }
      });
    }
  } finally {
    await store.close();
  }
  return Date.now() - started;
}
