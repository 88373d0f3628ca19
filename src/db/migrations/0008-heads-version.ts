import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * SQLite: one row that triggers bump in the same transaction as any change to what an
 * assessment's head holds (`store/assessments.findAssessmentSummary`): its columns, the deletion of
 * the assessment, and its candidate's `updated_at` or deletion. A server checks the row and keeps
 * heads read under the same value, so results and report reads skip the head's own read while
 * nothing that head depends on has changed, whichever process or code path wrote. Nothing on
 * PostgreSQL: many instances bumping one row would queue every completion behind that row's lock.
 */
const SUMMARY_COLUMNS = ['tenant_id', 'external_id', 'portal_domain', 'status', 'completed_at', 'norm_group_id', 'report_nonce', 'results_release'];
const BUMP = 'UPDATE heads_version SET version = version + 1 WHERE id = 1;';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await db.schema
    .createTable('heads_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO heads_version (id, version) VALUES (1, 0)`.execute(db);
  // WHEN compares values: an update that names a column without changing it bumps nothing.
  const changed = SUMMARY_COLUMNS.map((c) => `NEW.${c} IS NOT OLD.${c}`).join(' OR ');
  await sql.raw(`CREATE TRIGGER heads_version_assessment_update AFTER UPDATE ON assessments WHEN ${changed} BEGIN ${BUMP} END`).execute(db);
  await sql.raw(`CREATE TRIGGER heads_version_assessment_delete AFTER DELETE ON assessments BEGIN ${BUMP} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER heads_version_candidate_update AFTER UPDATE ON candidates WHEN NEW.updated_at IS NOT OLD.updated_at BEGIN ${BUMP} END`)
    .execute(db);
  await sql.raw(`CREATE TRIGGER heads_version_candidate_delete AFTER DELETE ON candidates BEGIN ${BUMP} END`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const name of ['assessment_update', 'assessment_delete', 'candidate_update', 'candidate_delete']) {
    await sql.raw(`DROP TRIGGER heads_version_${name}`).execute(db);
  }
  await db.schema.dropTable('heads_version').execute();
}
