import type { Kysely } from 'kysely';

/** A norm group's plain description by language (measurement/types.ts NormDescription) as JSON. Null: none, the report shows the source. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('norm_groups').addColumn('description', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('norm_groups').dropColumn('description').execute();
}
