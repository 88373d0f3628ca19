import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { CompiledQuery, sql } from 'kysely';
import type { Store } from '../../src/db/database.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

suiteOnEachDatabase('Store.executeAll: statements in order, all or none', { tenant: false, timeout: 60_000 }, ({ db, server }) => {
  let store: Store;
  const p = (i: number) => (db === 'postgres' ? `$${i}` : '?');
  const insert = (id: string) => CompiledQuery.raw(`insert into execute_all_probe (id) values (${p(1)})`, [id]);
  const ids = async () => (await sql<{ id: string }>`select id from execute_all_probe order by id`.execute(store.db)).rows.map((r) => r.id);
  before(async () => {
    store = server.running.deps.store;
    await sql`create table execute_all_probe (id text primary key)`.execute(store.db);
  });

  test('each statement’s result comes back in order, and a read sees the writes before it', async () => {
    const results = await store.executeAll([insert('a1'), insert('a2'), CompiledQuery.raw('select count(*) as n from execute_all_probe', [])]);
    assert.deepEqual(
      results?.map((r) => r.changes),
      [1, 1, 0],
    );
    assert.equal(Number((results![2]!.rows[0] as { n: number | string }).n), 2);
  });

  test('a failing statement undoes the group’s earlier ones', async () => {
    await assert.rejects(store.executeAll([insert('b1'), insert('a1')]));
    assert.deepEqual(await ids(), ['a1', 'a2']);
  });

  test('when the condition says no, nothing runs and it resolves undefined', async () => {
    assert.equal(await store.executeAll([insert('c1')], () => false), undefined);
    assert.deepEqual(await ids(), ['a1', 'a2']);
    assert.equal((await store.executeAll([insert('c1')], () => true))?.length, 1);
    assert.deepEqual(await ids(), ['a1', 'a2', 'c1']);
  });
});
