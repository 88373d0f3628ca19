import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * 1 once a portal's operator lets the vendor's sten and percentile lists carry scores of a
 * translation compared with another language's norm group. On SQLite a change to it bumps
 * heads_version (0008), as the results endpoint's kept bodies depend on it.
 */
const BUMP = 'UPDATE heads_version SET version = version + 1 WHERE id = 1;';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('portal_settings')
    .addColumn('translated_norms', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql
    .raw(`CREATE TRIGGER heads_version_translated_norms_insert AFTER INSERT ON portal_settings WHEN NEW.translated_norms <> 0 BEGIN ${BUMP} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER heads_version_translated_norms_update AFTER UPDATE ON portal_settings WHEN NEW.translated_norms IS NOT OLD.translated_norms BEGIN ${BUMP} END`,
    )
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER heads_version_translated_norms_delete AFTER DELETE ON portal_settings WHEN OLD.translated_norms <> 0 BEGIN ${BUMP} END`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const name of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER heads_version_translated_norms_${name}`).execute(db);
  }
  await db.schema.alterTable('portal_settings').dropColumn('translated_norms').execute();
}
