import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

export type DatabaseKind = 'sqlite' | 'postgres';

/**
 * The databases every parameterised suite runs on. test/run.ts starts an embedded PostgreSQL
 * and sets TEST_PG_URL; ASSAY_TEST_DATABASES=sqlite narrows a local run on purpose. A run
 * that should include PostgreSQL but has no URL fails loudly instead of skipping.
 */
export function testDatabases(): DatabaseKind[] {
  const wanted = (process.env.ASSAY_TEST_DATABASES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
  for (const kind of wanted) {
    if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`ASSAY_TEST_DATABASES: unknown database "${kind}"`);
  }
  if (wanted.includes('postgres') && !process.env.TEST_PG_URL) {
    throw new Error('TEST_PG_URL is not set: run the tests with `npm test` (it starts PostgreSQL), or set ASSAY_TEST_DATABASES=sqlite');
  }
  return wanted as DatabaseKind[];
}

/**
 * The database the browser suites run on: the first of `testDatabases()`, SQLite in a full run.
 * What a browser sees does not depend on the database, and the portal's routes run on both over
 * HTTP in their own suites; the 360 px portal suite alone took about 110 s a database.
 */
export function browserDatabases(): DatabaseKind[] {
  return testDatabases().slice(0, 1);
}

/** A DATABASE_URL for a database nobody else uses: a file in `dataDir`, or a new PostgreSQL database. */
export async function freshDatabaseUrl(kind: DatabaseKind, dataDir: string): Promise<string> {
  if (kind === 'sqlite') return `sqlite:${join(dataDir, 'assay.db')}`;
  const admin = new URL(process.env.TEST_PG_URL!);
  const name = `assay_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  return url.href;
}

const NAMES: Record<DatabaseKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** Options for a test that applies to `kind` alone: on another database it shows as skipped, with why. */
export function onlyOn(kind: DatabaseKind, db: DatabaseKind): { skip: string | false } {
  return { skip: db === kind ? false : `${NAMES[kind]} only` };
}

/**
 * Options for a suite that runs on PostgreSQL alone: a run without it (ASSAY_TEST_DATABASES=sqlite,
 * the Node.js 24 pass) shows it as skipped, with why, rather than registering nothing.
 */
export function postgresOnly(): { skip: string | false } {
  return { skip: testDatabases().includes('postgres') ? false : 'PostgreSQL only, and this run has no PostgreSQL (ASSAY_TEST_DATABASES)' };
}
