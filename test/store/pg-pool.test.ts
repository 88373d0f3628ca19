import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { testDatabases } from '../helpers/databases.js';
import { newAssessment } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

for (const kind of testDatabases().filter((k) => k === 'postgres')) {
  describe(`DATABASE_POOL_SIZE counts the queries' connections, LISTEN's apart (${kind})`, { timeout: 60_000 }, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(kind, { DATABASE_POOL_SIZE: '1' });
    });
    after(() => server.stop());

    test('with a size of 1 the server starts and serves, on one connection for queries and one that listens', async () => {
      const a = await newAssessment(server.url, await server.tenant());
      assert.match(a.id, /\S/);
      const backends = (
        await sql<{ query: string }>`select query from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`.execute(
          server.running.deps.store.db,
        )
      ).rows.map((r) => r.query);
      assert.equal(backends.length, 2, backends.join('\n'));
      assert.equal(backends.filter((q) => q.startsWith('LISTEN ')).length, 1, backends.join('\n'));
    });
  });
}
