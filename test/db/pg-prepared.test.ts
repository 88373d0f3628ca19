import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PREPARE, prepareMarkedStatements } from '../../src/db/pg-prepared.js';
import { freshDatabaseUrl, postgresOnly } from '../helpers/databases.js';
import { newAssessment } from '../helpers/fixtures.js';
import { FormClient, itemNames, startPath } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

{
  const kind = 'postgres' as const;
  describe(`marked statements run as named prepared statements (${kind})`, postgresOnly(), () => {
    let pool: pg.Pool;
    let db: Kysely<unknown>;
    before(async () => {
      pool = new pg.Pool({ connectionString: await freshDatabaseUrl(kind, mkdtempSync(join(tmpdir(), 'assay-pgprep-'))), max: 2 });
      prepareMarkedStatements(pool);
      db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    });
    after(() => db.destroy());

    const prepared = async (client: pg.PoolClient) =>
      (await client.query<{ statement: string }>('select statement from pg_prepared_statements order by name')).rows.map((r) => r.statement);

    test('through Kysely: a marked statement is prepared once per connection and answers each call with its own values', async () => {
      const add = (n: number) => sql<{ n: number }>`${sql.raw(PREPARE)} select ${n}::int + 1 as n`.execute(db);
      const plain = (n: number) => sql<{ n: number }>`select ${n}::int * 2 as n`.execute(db);
      // One connection at a time, so every call below lands on the same one.
      await db.connection().execute(async (conn) => {
        for (const n of [1, 41, -3]) assert.equal((await sql<{ n: number }>`${sql.raw(PREPARE)} select ${n}::int + 1 as n`.execute(conn)).rows[0]!.n, n + 1);
        assert.equal((await sql<{ n: number }>`select ${7}::int * 2 as n`.execute(conn)).rows[0]!.n, 14);
        const names = (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn)).rows.map((r) => r.statement);
        assert.deepEqual(names, [`${PREPARE} select $1::int + 1 as n`]);
      });
      assert.equal((await add(9)).rows[0]!.n, 10);
      assert.equal((await plain(9)).rows[0]!.n, 18);
    });

    test('a second connection prepares the same statement at its own first use', async () => {
      const [a, b] = [await pool.connect(), await pool.connect()];
      try {
        const text = `${PREPARE} select $1::text || '!' as s`;
        assert.equal((await a.query<{ s: string }>(text, ['a'])).rows[0]!.s, 'a!');
        assert.equal((await b.query<{ s: string }>(text, ['b'])).rows[0]!.s, 'b!');
        assert.ok((await prepared(a)).includes(text));
        assert.ok((await prepared(b)).includes(text));
      } finally {
        a.release();
        b.release();
      }
    });

    test('a marked statement that fails does not break the connection or the next call', async () => {
      const client = await pool.connect();
      try {
        const text = `${PREPARE} select 1 / $1::int as q`;
        await assert.rejects(client.query(text, [0]), /division by zero/);
        assert.equal((await client.query<{ q: number }>(text, [1])).rows[0]!.q, 1);
      } finally {
        client.release();
      }
    });
  });
}

// One connection, so every request below and the check read the same connection's statements.
suiteOnEachDatabase(
  "the portal's session read is a named prepared statement",
  { on: 'postgres', env: { DATABASE_POOL_SIZE: '1' }, tenant: false, timeout: 60_000 },
  ({ server }) => {
    test('pages of two assessments are each read as their own, through one statement prepared on the connection', async () => {
      const creds = await server.tenant();
      const [a, b] = [await newAssessment(server.url, creds), await newAssessment(server.url, creds)];
      const client = new FormClient(server.url);
      const started = await client.submit(startPath(a.id), {});
      assert.equal(started.status, 303);
      const questions = await client.get(started.location!);
      assert.equal(questions.status, 200);
      assert.ok(itemNames(questions.html).length > 0, `${started.location} shows questions`);
      const notStarted = await new FormClient(server.url).get(startPath(b.id));
      assert.equal(notStarted.status, 200);
      assert.deepEqual(itemNames(notStarted.html), [], 'the other assessment is still at its start');
      const statements = (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(server.running.deps.store.db)).rows
        .map((r) => r.statement)
        .filter((s) => s.includes('from "assessments" as "a" inner join "candidates"'));
      assert.equal(statements.length, 1, statements.join('\n'));
      assert.ok(statements[0]!.startsWith(PREPARE), statements[0]);
    });
  },
);
