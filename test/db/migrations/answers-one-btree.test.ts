import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../../helpers/deadline.js';
import { sql } from 'kysely';
import type { Store } from '../../../src/db/database.js';
import { migrator } from '../../../src/db/migrate.js';
import { onlyOn } from '../../helpers/databases.js';
import { suiteOnEachDatabase } from '../../helpers/harness.js';
import { newAssessment } from '../../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../../helpers/forms.js';

suiteOnEachDatabase('migration 0007: the answers in one B-tree', { tenant: false, timeout: 60_000 }, ({ db, server }) => {
  let store: Store;
  before(async () => {
    store = server.running.deps.store;
    const creds = await server.tenant();
    for (let i = 0; i < 2; i++) await completeViaForms(new FormClient(server.url), (await newAssessment(server.url, creds)).id);
  });

  const answers = () => store.db.selectFrom('assessment_answers').selectAll().orderBy('analysis_id').orderBy('item_id').execute();
  /** SQLite's own word for the table's form; PostgreSQL has none. */
  const withoutRowid = async () =>
    db === 'sqlite'
      ? /without rowid\s*$/i.test((await sql<{ sql: string }>`select sql from sqlite_master where name = 'assessment_answers'`.execute(store.db)).rows[0]!.sql)
      : undefined;

  test(`down and up again keep every answer${db === 'sqlite' ? '; up makes the table WITHOUT ROWID, down a rowid table again' : '; the table is untouched'}`, async () => {
    const before = await answers();
    assert.ok(before.length >= 340, `two finished TMA170s: ${before.length} answers`);
    assert.equal(await withoutRowid(), db === 'sqlite' ? true : undefined);

    const down = await migrator(store).migrateTo('0006-webhook-log');
    assert.equal(down.error, undefined);
    assert.deepEqual(
      down.results?.map((r) => [r.migrationName, r.status]),
      [
        ['0023-console', 'Success'],
        ['0022-idempotency-keys', 'Success'],
        ['0021-assessment-list', 'Success'],
        ['0018-translated-norms', 'Success'],
        ['0017-mail-by-tenant', 'Success'],
        ['0016-candidate-bound', 'Success'],
        ['0015-greenhouse-one-order', 'Success'],
        ['0014-norm-group-description', 'Success'],
        ['0013-norm-group-sample', 'Success'],
        ['0012-greenhouse', 'Success'],
        ['0011-mail', 'Success'],
        ['0010-content-version-and-language', 'Success'],
        ['0009-webhook-attempts-by-tenant', 'Success'],
        ['0008-heads-version', 'Success'],
        ['0007-answers-one-btree', 'Success'],
      ],
    );
    assert.deepEqual(await answers(), before);
    assert.equal(await withoutRowid(), db === 'sqlite' ? false : undefined);

    const up = await migrator(store).migrateToLatest();
    assert.equal(up.error, undefined);
    assert.deepEqual(await answers(), before);
    assert.equal(await withoutRowid(), db === 'sqlite' ? true : undefined);
  });

  test(
    'an answer without its assessment (a file edited with foreign keys off) is left out of the copy instead of failing it',
    onlyOn('sqlite', db),
    async () => {
      const before = await answers();
      await store.pragma!('foreign_keys = OFF');
      try {
        await store.db
          .insertInto('assessment_answers')
          .values({ ...before[0]!, analysis_id: 'orphan-xxxxxxxxxxxxxxxxxx' })
          .execute();
      } finally {
        await store.pragma!('foreign_keys = ON');
      }
      assert.equal((await answers()).length, before.length + 1);
      assert.equal((await migrator(store).migrateTo('0006-webhook-log')).error, undefined);
      assert.equal((await migrator(store).migrateToLatest()).error, undefined);
      assert.deepEqual(await answers(), before);
    },
  );

  test('the key still refuses a second answer to one item, and the assessment must exist', async () => {
    const one = (await answers())[0]!;
    await assert.rejects(store.db.insertInto('assessment_answers').values(one).execute(), /UNIQUE|duplicate key/);
    await assert.rejects(
      store.db
        .insertInto('assessment_answers')
        .values({ ...one, analysis_id: 'no-such-assessment-xxxxxx' })
        .execute(),
      /FOREIGN KEY|foreign key/,
    );
  });
});
