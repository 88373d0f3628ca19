import type { Kysely } from 'kysely';

/**
 * What an assessment was taken in: the instrument's content version and the portal's language at
 * completion; and what a norm group was built from. Null for rows from before: unknown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['assessments', 'norm_groups']) {
    await db.schema.alterTable(table).addColumn('content_version', 'text').execute();
    await db.schema.alterTable(table).addColumn('language', 'text').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['norm_groups', 'assessments']) {
    await db.schema.alterTable(table).dropColumn('language').execute();
    await db.schema.alterTable(table).dropColumn('content_version').execute();
  }
}
