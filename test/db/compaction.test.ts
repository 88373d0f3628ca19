import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { sql } from 'kysely';
import { openSqliteFile } from '../../src/db/database.js';
import { compactAfterErasures } from '../../src/db/sqlite-compaction.js';
import { scanFiles } from '../helpers/files.js';
import { newAssessment } from '../helpers/fixtures.js';
import { authHeaders, request } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

/**
 * secure_delete zeroes a row where it lies when it is deleted. A B-tree page that SQLite
 * rebuilds keeps the bytes it no longer uses: copies of rows that moved to other pages, which
 * stay when those rows are deleted later. Tables shaped like assessments and their answers
 * (5,000 ids, 20 answers each), with runs of ids deleted one transaction each, leave one such
 * copy with the SQLite that better-sqlite3 bundles; how many depends on the exact sizes.
 */
describe('compaction: copies of deleted rows that SQLite left in rebuilt pages are gone', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-compaction-'));
  const path = join(dir, 'probe.db');
  let raw: ReturnType<typeof openSqliteFile>;
  const truncate = async () => void raw.pragma('wal_checkpoint(TRUNCATE)');
  const id = (i: number) => `AID${String(i).padStart(6, '0')}qqqqqqqqqqqq`;
  const deleted: number[] = [];
  for (let i = 0; i < 5_000; i += i % 1000 < 500 ? 1 : 500) deleted.push(i);
  const left = () =>
    scanFiles(
      dir,
      deleted.map((i) => Buffer.from(id(i))),
    ).reduce((n, { counts }) => n + counts.filter((c) => c > 0).length, 0);

  before(async () => {
    raw = openSqliteFile(path);
    raw.exec(`
      create table erasures (id text primary key);
      create table assessments (analysis_id text primary key, n integer not null);
      create table answers (analysis_id text, item text, value integer, primary key (analysis_id, item)) without rowid;
      with recursive n(i) as (select 0 union all select i + 1 from n where i < 4999)
        insert into assessments select printf('AID%06dqqqqqqqqqqqq', i), i from n;
      with recursive n(i) as (select 0 union all select i + 1 from n where i < 4999), k(j) as (select 0 union all select j + 1 from k where j < 19)
        insert into answers select printf('AID%06dqqqqqqqqqqqq', i), 'item' || j, j from n, k order by 1, 2;`);
    const answers = raw.prepare('delete from answers where analysis_id = ?');
    const assessments = raw.prepare('delete from assessments where analysis_id = ?');
    for (const i of deleted) raw.transaction(() => (answers.run(id(i)), assessments.run(id(i))))();
    await truncate();
  });
  after(() => {
    raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('with secure_delete and a truncated WAL, a copy of a deleted row is still in the file', () => {
    assert.ok(left() > 0, 'the case compaction is for: if SQLite stops leaving copies, this test has nothing left to show');
  });

  test('with no erasure recorded since the last compaction it does nothing; after one, no copy is left and every other row is kept', async () => {
    assert.equal(await compactAfterErasures(raw, path, truncate), false);
    assert.ok(left() > 0);
    raw.prepare('insert into erasures (id) values (?)').run('one');
    assert.equal(await compactAfterErasures(raw, path, truncate), true);
    assert.equal(left(), 0);
    assert.equal(raw.prepare('select count(*) from answers').pluck().get(), (5_000 - deleted.length) * 20);
    assert.equal(await compactAfterErasures(raw, path, truncate), false, 'that erasure is covered now');
  });
});

suiteOnEachDatabase(
  'a served SQLite store compacts after an API erasure, at its next retention sweep',
  { on: 'sqlite', env: { RETENTION_SWEEP_INTERVAL_MS: '1000' }, tenant: false, timeout: 60_000 },
  ({ server }) => {
    test('the sweep compacts once the erasure is recorded, and then has nothing to do', async () => {
      const store = server.running.deps.store;
      const covered = async () => Number((await sql<{ user_version: number }>`pragma user_version`.execute(store.db)).rows[0]!.user_version);
      assert.equal(await covered(), 0);
      const creds = await server.tenant();
      const a = await newAssessment(server.url, creds);
      assert.equal((await request(`${server.url}/api/anonymous/candidate/${a.externalId}`, { method: 'DELETE', headers: authHeaders(creds) })).status, 200);
      await eventually(async () => ((await covered()) === 1 ? true : undefined), 10_000, 'the sweep to compact');
      assert.equal(await store.compact(), false);
      assert.equal((await a.api.get(`/api/anonymous/candidate/${a.externalId}`)).status, 404);
    });
  },
);
