import { Migrator, NO_MIGRATIONS, type Kysely, type Migration, type MigrationResult } from 'kysely';
import type { Store } from './database.js';
import * as initial from './migrations/0001-initial.js';
import * as credentialsVersion from './migrations/0002-credentials-version.js';
import * as results from './migrations/0003-results.js';
import * as reports from './migrations/0004-reports.js';
import * as lifecycle from './migrations/0005-lifecycle.js';
import * as webhookLog from './migrations/0006-webhook-log.js';
import * as answersOneBtree from './migrations/0007-answers-one-btree.js';
import * as summariesVersion from './migrations/0008-heads-version.js';
import * as webhookAttemptsByTenant from './migrations/0009-webhook-attempts-by-tenant.js';
import * as contentVersionAndLanguage from './migrations/0010-content-version-and-language.js';
import * as mail from './migrations/0011-mail.js';
import * as greenhouse from './migrations/0012-greenhouse.js';
import * as normGroupSample from './migrations/0013-norm-group-sample.js';
import * as normGroupDescription from './migrations/0014-norm-group-description.js';
import * as greenhouseOneOrder from './migrations/0015-greenhouse-one-order.js';
import * as candidateBound from './migrations/0016-candidate-bound.js';
import * as mailByTenant from './migrations/0017-mail-by-tenant.js';
import * as translatedNorms from './migrations/0018-translated-norms.js';
import * as assessmentList from './migrations/0021-assessment-list.js';
import * as idempotencyKeys from './migrations/0022-idempotency-keys.js';
import * as consoleUsers from './migrations/0023-console.js';

/** Versioned migrations, in order. Names sort; never rename or edit one that shipped. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-credentials-version': credentialsVersion,
  '0003-results': results,
  '0004-reports': reports,
  '0005-lifecycle': lifecycle,
  '0006-webhook-log': webhookLog,
  '0007-answers-one-btree': answersOneBtree,
  '0008-heads-version': summariesVersion,
  '0009-webhook-attempts-by-tenant': webhookAttemptsByTenant,
  '0010-content-version-and-language': contentVersionAndLanguage,
  '0011-mail': mail,
  '0012-greenhouse': greenhouse,
  '0013-norm-group-sample': normGroupSample,
  '0014-norm-group-description': normGroupDescription,
  '0015-greenhouse-one-order': greenhouseOneOrder,
  '0016-candidate-bound': candidateBound,
  '0017-mail-by-tenant': mailByTenant,
  '0018-translated-norms': translatedNorms,
  '0021-assessment-list': assessmentList,
  '0022-idempotency-keys': idempotencyKeys,
  '0023-console': consoleUsers,
};

/** The migrations this version knows, oldest first: a database that has others was made by a newer Assay. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/** Kysely's migrator over this version's migrations. */
export function migrator(store: Store): Migrator {
  return new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
}

export async function migrateToLatest(store: Store): Promise<MigrationResult[]> {
  const { error, results } = await migrator(store).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results ?? [];
}

/**
 * Migrates `db` (a fresh database) up to `last` and no further (none: only Kysely's own tables):
 * the schema this version's migrations make, to compare a backup with.
 */
export async function migrateFreshTo(db: Kysely<unknown>, last: string | undefined): Promise<void> {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(last ?? NO_MIGRATIONS);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
