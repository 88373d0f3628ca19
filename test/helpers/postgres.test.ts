import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mock } from 'node:test';
import { describe, test } from './deadline.js';
import pg from 'pg';
import { postgresOnly } from './databases.js';
import { PORT_RANGE, startEmbeddedPostgres } from './postgres.js';

const [LOW, HIGH] = PORT_RANGE;

/** A listener on a port of the helper's range that nobody else holds, found by trying (bounded). */
async function holdPortInRange(): Promise<{ server: Server; port: number }> {
  for (let i = 0; i < 50; i++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    const server = createServer();
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) return { server, port };
  }
  throw new Error(`no free port in ${LOW}-${HIGH - 1} after 50 tries`);
}

// The test run's own PostgreSQL is started by this helper; a run without PostgreSQL shows this skipped.
{
  const db = 'postgres' as const;
  describe(`embedded PostgreSQL for the tests [${db}]`, postgresOnly(), () => {
    test('starts on another port when the one it picked is taken, and answers there', { timeout: 120_000 }, async () => {
      const held = await holdPortInRange();
      const dir = mkdtempSync(join(tmpdir(), 'assay-pg-port-'));
      // The first pick is the held port; later picks are random again.
      const random = Math.random.bind(Math);
      let picks = 0;
      mock.method(Math, 'random', () => (picks++ === 0 ? (held.port - LOW + 0.5) / (HIGH - LOW) : random()));
      let started: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
      try {
        started = await startEmbeddedPostgres({ dir, persistent: false });
        mock.restoreAll();
        assert.ok(picks >= 2, `picked ${picks} port(s)`);
        assert.notEqual(started.port, held.port);
        const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${started.port}/postgres`, connectionTimeoutMillis: 10_000 });
        await client.connect();
        try {
          assert.equal((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
        } finally {
          await client.end();
        }
      } finally {
        mock.restoreAll();
        await started?.server.stop();
        held.server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
