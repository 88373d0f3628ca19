import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../../helpers/deadline.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { VERSION_MAX_AGE_MS, type Store } from '../../../src/db/database.js';
import { findAssessmentSummary } from '../../../src/assessments/assessments-store.js';
import { onlyOn } from '../../helpers/databases.js';
import { suiteOnEachDatabase } from '../../helpers/harness.js';
import { newAssessment } from '../../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../../helpers/forms.js';
import { otherConnection } from '../../helpers/server.js';

suiteOnEachDatabase('migration 0008: the heads version', { tenant: false, timeout: 60_000 }, ({ db, server }) => {
  let store: Store;
  let id: string;
  before(async () => {
    store = server.running.deps.store;
    const a = await newAssessment(server.url, await server.tenant());
    await completeViaForms(new FormClient(server.url), a.id);
    id = a.id;
  });

  test('PostgreSQL has no heads version: no table, and the store gives none', onlyOn('postgres', db), async () => {
    const tables = await sql<{ n: number }>`select count(*) as n from information_schema.tables where table_name = 'heads_version'`.execute(store.db);
    assert.equal(Number(tables.rows[0]!.n), 0);
    assert.equal(store.summariesVersion(), undefined);
  });

  test(
    "every column of the head, and only those, bumps the version when it changes; so do deletions, the candidate changing and the portal's translated-norms setting (0018)",
    onlyOn('sqlite', db),
    async () => {
      const head = (await findAssessmentSummary(store, id))!;
      const columns = Object.keys(head).filter((c) => !['analysis_id', 'candidate_updated_at', 'translated_norms'].includes(c));
      assert.ok(columns.length >= 8, columns.join());
      // Another connection, as the CLI or a second process has; all of it rolled back after.
      const other = otherConnection(server);
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
        const others = (table: string, except: string[]) =>
          (other.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).filter((c) => !except.includes(c));
        const rest = others('assessments', ['analysis_id', ...columns]);
        assert.ok(rest.includes('last_activity_at') && rest.includes('scores'), rest.join());
        for (const c of rest) assert.equal(bumps(`UPDATE assessments SET ${c} = coalesce(${c}, '') || 'x' WHERE analysis_id = ?`, id), 0, c);
        const externalId = head.external_id;
        for (const c of others('candidates', ['external_id', 'updated_at'])) {
          assert.equal(bumps(`UPDATE candidates SET ${c} = coalesce(${c}, '') || 'x' WHERE external_id = ?`, externalId), 0, `candidate ${c}, updated_at left`);
        }
        assert.equal(bumps(`UPDATE candidates SET updated_at = updated_at || 'x' WHERE external_id = ?`, externalId), 1, 'updated_at');
        assert.equal(bumps('DELETE FROM assessment_answers WHERE analysis_id = ?', id), 0, 'answers');
        const key = other.prepare('SELECT api_key_id FROM assessments WHERE analysis_id = ?').pluck().get(id);
        const settings = `INSERT OR IGNORE INTO portal_settings (api_key_id, candidate_feedback, candidate_release, updated_at) VALUES (?, 0, 0, 'x')`;
        assert.equal(bumps(settings, key), 0, 'portal settings with translated norms denied');
        assert.equal(bumps('UPDATE portal_settings SET candidate_feedback = 1 - candidate_feedback WHERE api_key_id = ?', key), 0, 'another setting');
        assert.equal(bumps('UPDATE portal_settings SET translated_norms = 1 WHERE api_key_id = ?', key), 1, 'translated norms allowed');
        assert.equal(bumps('DELETE FROM portal_settings WHERE api_key_id = ?', key), 1, 'settings allowing them deleted');
        assert.equal(bumps('DELETE FROM assessments WHERE analysis_id = ?', id), 1, 'the assessment deleted');
        assert.equal(bumps('DELETE FROM candidates WHERE external_id = ?', externalId), 1, 'the candidate deleted');
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
    },
  );

  test('with its row gone (a file edited by hand) the store gives no version, and gives one again once the row is back', onlyOn('sqlite', db), async () => {
    const other = otherConnection(server);
    const was = store.summariesVersion()!;
    try {
      other.exec('DELETE FROM heads_version');
      await sleep(VERSION_MAX_AGE_MS + 5);
      assert.equal(store.summariesVersion(), undefined);
    } finally {
      other.prepare('INSERT INTO heads_version (id, version) VALUES (1, ?)').run(was + 1_000);
      other.close();
    }
    await sleep(VERSION_MAX_AGE_MS + 5);
    assert.equal(store.summariesVersion(), was + 1_000);
  });

  test(
    "this process's own commits, a transaction's and a batch's, are seen at once, without waiting for the version read to age",
    onlyOn('sqlite', db),
    async () => {
      const realNow = performance.now;
      const frozen = realNow.call(performance);
      // With the clock stopped, a version read is used until something forgets it.
      performance.now = () => frozen;
      try {
        const before = store.summariesVersion()!;
        await store.write((trx) =>
          trx
            .updateTable('assessments')
            .set({ report_nonce: `n-${before}` })
            .where('analysis_id', '=', id)
            .execute(),
        );
        assert.equal(store.summariesVersion(), before + 1, 'a transaction');
        await store.execute(
          store.db
            .updateTable('assessments')
            .set({ report_nonce: `m-${before}` })
            .where('analysis_id', '=', id)
            .compile(),
        );
        assert.equal(store.summariesVersion(), before + 2, 'a batch');
      } finally {
        performance.now = realNow;
      }
    },
  );

  test("inside a transaction open on the server's connection the version is not given: its bump may yet roll back", onlyOn('sqlite', db), async () => {
    assert.equal(typeof store.summariesVersion(), 'number');
    let inside: number | undefined = -1;
    await store.write(async () => {
      inside = store.summariesVersion();
    });
    assert.equal(inside, undefined);
  });
});
