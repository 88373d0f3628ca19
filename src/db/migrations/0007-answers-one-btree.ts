import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * SQLite: the answers become a WITHOUT ROWID table, keyed and stored by (analysis_id, item_id).
 * With a rowid, each answer lived in the table and its key in a separate index, so the portal's
 * session read, which gathers an assessment's answers twice per page, searched the table again
 * for every answer's value.
 * The table keeps its name, columns and keys, so no query changes. Nothing changes on
 * PostgreSQL, where a table has no rowid to drop.
 */
async function rebuild(db: Kysely<unknown>, withoutRowid: boolean): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await db.schema
    .createTable('assessment_answers_rebuilt')
    .addColumn('analysis_id', 'text', (c) => c.notNull().references('assessments.analysis_id'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('answered_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('assessment_answers_pk', ['analysis_id', 'item_id'])
    .$call((t) => (withoutRowid ? t.modifyEnd(sql`without rowid`) : t))
    .execute();
  // An answer without its assessment (possible only in a file edited with foreign keys off) has
  // no owner to return or erase it for; it would fail the copy and so every start.
  await sql`insert into assessment_answers_rebuilt (analysis_id, item_id, value, answered_at)
    select analysis_id, item_id, value, answered_at from assessment_answers
    where analysis_id in (select analysis_id from assessments)`.execute(db);
  await db.schema.dropTable('assessment_answers').execute();
  await db.schema.alterTable('assessment_answers_rebuilt').renameTo('assessment_answers').execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, false);
}
