import type { Kysely } from 'kysely';

/**
 * 1 once the browser that pressed Start holds the candidate's credential. Rows started before
 * that rule keep 0: the next browser to open one claims it, so a candidate mid-way goes on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('assessments')
    .addColumn('candidate_bound', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assessments').dropColumn('candidate_bound').execute();
}
