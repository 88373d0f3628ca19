import type { Kysely } from 'kysely';

/**
 * candidate_bound: 1 once the browser that pressed Start holds the candidate's credential. Rows
 * started before that rule keep 0: the next browser to open one claims it, so a candidate mid-way
 * goes on. candidate_key_gen: moved on when the personal link takes the session to another
 * browser, so every credential given before stops working.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('assessments')
    .addColumn('candidate_bound', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('assessments')
    .addColumn('candidate_key_gen', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assessments').dropColumn('candidate_key_gen').execute();
  await db.schema.alterTable('assessments').dropColumn('candidate_bound').execute();
}
