import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../../src/store/database.js';
import { findAssessmentHead } from '../../../src/store/assessments.js';
import { Database } from '../../../src/store/sqlite-driver.js';
import { testDatabases } from '../../helpers/databases.js';
import { newAssessment } from '../../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../../helpers/forms.js';
import { startServer, type TestServer } from '../../helpers/server.js';

for (const db of testDatabases()) {
  describe(`migration 0008: the heads version [${db}]`, { timeout: 60_000 }, () => {
    let server: TestServer;
    let store: Store;
    let id: string;
    before(async () => {
      server = await startServer(db);
      store = server.running.deps.store;
      const a = await newAssessment(server.url, await server.tenant());
      await completeViaForms(new FormClient(server.url), a.id);
      id = a.id;
    });
    after(() => server.stop());

    if (db === 'postgres') {
      test('PostgreSQL has no heads version: no table, and the store gives none', async () => {
        const tables = await sql<{ n: number }>`select count(*) as n from information_schema.tables where table_name = 'heads_version'`.execute(store.db);
        assert.equal(Number(tables.rows[0]!.n), 0);
        assert.equal(store.headsVersion(), undefined);
      });
      return;
    }

    test('every column of the head, and only those, bumps the version when it changes; so do deletions and the candidate changing', async () => {
      const head = (await findAssessmentHead(store, id))!;
      const columns = Object.keys(head).filter((c) => c !== 'analysis_id' && c !== 'candidate_updated_at');
      assert.ok(columns.length >= 8, columns.join());
      // Another connection, as the CLI or a second process has; all of it rolled back after.
      const other = new Database(server.databaseUrl.slice('sqlite:'.length));
      const version = () => other.prepare('SELECT version FROM heads_version WHERE id = 1').pluck().get() as number;
      const bumps = (statement: string, ...args: unknown[]) => {
        const before = version();
        other.prepare(statement).run(...args);
        return version() - before;
      };
      // Off: the changed ids point at no tenant or candidate, which no one sees before the rollback.
      other.pragma('foreign_keys = OFF');
      other.exec('BEGIN');
      try {
        for (const c of columns) {
          assert.equal(bumps(`UPDATE assessments SET ${c} = ${c} WHERE analysis_id = ?`, id), 0, `${c} set to itself`);
          assert.equal(bumps(`UPDATE assessments SET ${c} = coalesce(${c}, '') || 'x' WHERE analysis_id = ?`, id), 1, `${c} changed`);
        }
        for (const c of ['last_activity_at', 'scores', 'return_url']) assert.equal(bumps(`UPDATE assessments SET ${c} = coalesce(${c}, '') || 'x' WHERE analysis_id = ?`, id), 0, c);
        const externalId = head.external_id;
        assert.equal(bumps(`UPDATE candidates SET first_name = first_name || 'x' WHERE external_id = ?`, externalId), 0, 'a candidate change that leaves updated_at');
        assert.equal(bumps(`UPDATE candidates SET updated_at = updated_at || 'x' WHERE external_id = ?`, externalId), 1, 'updated_at');
        assert.equal(bumps('DELETE FROM assessment_answers WHERE analysis_id = ?', id), 0, 'answers');
        assert.equal(bumps('DELETE FROM assessments WHERE analysis_id = ?', id), 1, 'the assessment deleted');
        assert.equal(bumps('DELETE FROM candidates WHERE external_id = ?', externalId), 1, 'the candidate deleted');
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
    });

    test('with its row gone (a file edited by hand) no version holds, so every read reads the head', async () => {
      const other = new Database(server.databaseUrl.slice('sqlite:'.length));
      const was = store.headsVersion()!;
      try {
        other.exec('DELETE FROM heads_version');
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(store.headsVersion(), undefined);
      } finally {
        other.prepare('INSERT INTO heads_version (id, version) VALUES (1, ?)').run(was + 1_000);
        other.close();
      }
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(store.headsVersion(), was + 1_000);
    });

    test('inside a transaction open on the server\'s connection the version is not given: its bump may yet roll back', async () => {
      assert.equal(typeof store.headsVersion(), 'number');
      let inside: number | undefined = -1;
      await store.write(async () => {
        inside = store.headsVersion();
      });
      assert.equal(inside, undefined);
    });
  });
}
