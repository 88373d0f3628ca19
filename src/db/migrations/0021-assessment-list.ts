import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * The tenant's assessment list (GET /api/anonymous/assessments) reads pages in key order, one
 * index per order, so a page costs the same at 100,000 rows as at 100 (bench/README.md).
 *
 * `changed_at` is the latest of the times the row records a change at: creation, start, the
 * candidate's last page, completion, cancellation and a release of the results. It is generated,
 * so every write that sets one of them moves it without knowing of it: virtual on SQLite (which
 * cannot add a stored one), stored on PostgreSQL (which has only stored ones).
 */
const SOURCES = ['started_at', 'completed_at', 'cancelled_at', 'last_activity_at', 'results_released_at'];
// SQLite's max() of several values is null when one is null; PostgreSQL's greatest() skips nulls.
const SQLITE_CHANGED = `max(created_at, ${SOURCES.map((c) => `coalesce(${c}, '')`).join(', ')})`;
const POSTGRES_CHANGED = `greatest(created_at, ${SOURCES.join(', ')})`;

// Each list order's index, then the columns a filter reads (status, expires_at), so rows another
// filter leaves out are passed over in the index without reading the table.
const INDEXES: Record<string, string[]> = {
  assessments_list_created: ['tenant_id', 'created_at', 'analysis_id', 'status', 'expires_at'],
  assessments_list_status: ['tenant_id', 'status', 'created_at', 'analysis_id', 'expires_at'],
  assessments_list_completed: ['tenant_id', 'completed_at', 'analysis_id', 'status', 'expires_at'],
  assessments_list_expires: ['tenant_id', 'expires_at', 'analysis_id', 'status'],
  assessments_list_changed: ['tenant_id', 'changed_at', 'analysis_id', 'status', 'expires_at'],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const generated = sqlite ? `(${SQLITE_CHANGED}) VIRTUAL` : `(${POSTGRES_CHANGED}) STORED`;
  await sql.raw(`ALTER TABLE assessments ADD COLUMN changed_at text GENERATED ALWAYS AS ${generated}`).execute(db);
  for (const [name, columns] of Object.entries(INDEXES)) await db.schema.createIndex(name).on('assessments').columns(columns).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(INDEXES)) await db.schema.dropIndex(name).execute();
  await db.schema.alterTable('assessments').dropColumn('changed_at').execute();
}
