import type { Kysely } from 'kysely';

/** A norm group's sample account (measurement/norm-sample.ts) as JSON. Null for groups from before, or imported without one: not recorded. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('norm_groups').addColumn('sample', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('norm_groups').dropColumn('sample').execute();
}
