import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqliteFile } from '../../src/store/database.js';
import { SqliteWriter } from '../../src/store/sqlite-writer.js';
import { tempDir } from '../helpers/server.js';

const insert = (id: string, note = 'x') => CompiledQuery.raw('INSERT INTO t (id, note) VALUES (?, ?)', [id, note]);

describe('SqliteWriter: single statements in a worker thread, batched', () => {
  let path: string;
  let raw: BetterSqlite3.Database;
  let writer: SqliteWriter;
  before(() => {
    path = join(tempDir(), 'w.db');
    raw = openSqliteFile(path);
    // Only the worker may checkpoint, so the database file grows only through its checkpoints.
    raw.pragma('wal_autocheckpoint = 0');
    raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    writer = new SqliteWriter(path, 50);
  });
  after(async () => {
    await writer.stop();
    raw.close();
  });

  test('concurrent writes all commit, each with its own result, visible to other connections', async () => {
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => writer.execute(insert(`a${i}`))));
    assert.ok(results.every((r) => r.changes === 1));
    assert.equal(raw.prepare("SELECT count(*) FROM t WHERE id LIKE 'a%'").pluck().get(), 500);
  });

  test('a constraint error fails only its own write, with SQLite’s code', async () => {
    const outcomes = await Promise.allSettled([writer.execute(insert('b1')), writer.execute(insert('a1')), writer.execute(insert('b2'))]);
    assert.equal(outcomes[0].status, 'fulfilled');
    assert.equal(outcomes[2].status, 'fulfilled');
    assert.equal(outcomes[1].status, 'rejected');
    assert.equal((outcomes[1] as PromiseRejectedResult).reason.code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
    assert.deepEqual(raw.prepare("SELECT id FROM t WHERE id LIKE 'b%' ORDER BY id").pluck().all(), ['b1', 'b2']);
  });

  test('a statement that cannot compile fails alone, and works once it can', async () => {
    const later = CompiledQuery.raw('INSERT INTO later (id) VALUES (?)', ['g1']);
    const outcomes = await Promise.allSettled([writer.execute(insert('g1')), writer.execute(later)]);
    assert.equal(outcomes[0].status, 'fulfilled');
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason.message), /no such table/);
    raw.exec('CREATE TABLE later (id TEXT PRIMARY KEY)');
    assert.equal((await writer.execute(later)).changes, 1);
  });

  test('reads run in the worker too and return rows', async () => {
    const { rows } = await writer.execute(CompiledQuery.raw('SELECT note FROM t WHERE id = ?', ['a7']));
    assert.deepEqual(rows, [{ note: 'x' }]);
  });

  test('exclusive work never overlaps a batch: neither connection waits for the other', async () => {
    // With no waiting allowed, any overlap fails with SQLITE_BUSY on one side or the other.
    raw.pragma('busy_timeout = 0');
    await writer.pragma('busy_timeout = 0');
    // Exclusive work is serialised by its caller (the group committer, in the server).
    let chain: Promise<unknown> = Promise.resolve();
    try {
      const work: Array<Promise<unknown>> = [];
      for (let round = 0; round < 20; round++) {
        for (let i = 0; i < 20; i++) work.push(writer.execute(insert(`c${round}-${i}`)));
        work.push(
          writer.exclusive(() => {
            chain = chain.then(async () => {
              raw.exec('BEGIN IMMEDIATE');
              // Holds the write lock across turns of the event loop, as a real transaction does.
              await new Promise((r) => setTimeout(r, 1));
              raw.prepare('INSERT INTO t (id, note) VALUES (?, ?)').run(`main-${round}`, 'm');
              raw.exec('COMMIT');
            });
            return chain;
          }),
        );
      }
      await Promise.all(work);
    } finally {
      raw.pragma('busy_timeout = 5000');
      await writer.pragma('busy_timeout = 5000');
    }
    assert.equal(raw.prepare("SELECT count(*) FROM t WHERE id LIKE 'c%'").pluck().get(), 400);
    assert.equal(raw.prepare("SELECT count(*) FROM t WHERE id LIKE 'main-%'").pluck().get(), 20);
  });

  test('a refused write rejects with the code the error mapping knows (read-only store)', async () => {
    await writer.pragma('query_only = ON');
    try {
      await assert.rejects(writer.execute(insert('d1')), (e: { code?: string }) => e.code?.startsWith('SQLITE_READONLY') ?? false);
    } finally {
      await writer.pragma('query_only = OFF');
    }
    assert.equal((await writer.execute(insert('d1'))).changes, 1);
  });

  test('the WAL is checkpointed back into the database file while writes go on', async () => {
    const before = statSync(path).size;
    for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 50 }, (_, j) => writer.execute(insert(`e${i}-${j}`, 'y'.repeat(500)))));
    await new Promise((r) => setTimeout(r, 150));
    // 500 rows of 500 bytes reached the database file itself, not only the log.
    assert.ok(statSync(path).size - before >= 250_000, `database file grew from ${before} to ${statSync(path).size}`);
  });

  test('stop waits for queued writes', async () => {
    const second = new SqliteWriter(path, 50);
    const pending = Array.from({ length: 100 }, (_, i) => second.execute(insert(`f${i}`)));
    await second.stop();
    assert.ok((await Promise.all(pending)).every((r) => r.changes === 1));
    assert.equal(raw.prepare("SELECT count(*) FROM t WHERE id LIKE 'f%'").pluck().get(), 100);
  });
});
