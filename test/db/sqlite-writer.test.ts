import assert from 'node:assert/strict';
import { fdatasync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { CompiledQuery } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqliteFile } from '../../src/db/database.js';
import { SqliteWriter, type SyncFd } from '../../src/db/sqlite-writer.js';
import { tempDir } from '../helpers/server.js';

const insert = (id: string, note = 'x') => CompiledQuery.raw('INSERT INTO t (id, note) VALUES (?, ?)', [id, note]);

/** fdatasync that waits until the test releases it, recording how many rows each sync covered. */
function heldSync(raw: BetterSqlite3.Database) {
  const held: Array<{ rowsAtStart: number; release(): void }> = [];
  const syncFd: SyncFd = (fd, done) => {
    const rowsAtStart = raw.prepare('SELECT count(*) FROM t').pluck().get() as number;
    held.push({ rowsAtStart, release: () => fdatasync(fd, done) });
  };
  return { held, syncFd };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Turns of the event loop until `ok`, for at most 10 s. */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !ok(); await turn()) if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

describe('SqliteWriter: single statements batched per turn, answered after the WAL is synced', () => {
  let path: string;
  let raw: BetterSqlite3.Database;
  let writer: SqliteWriter;
  before(() => {
    path = join(tempDir(), 'w.db');
    raw = openSqliteFile(path);
    raw.pragma('synchronous = NORMAL');
    raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    writer = new SqliteWriter(raw, `${path}-wal`);
  });
  after(async () => {
    await writer.stop();
    raw.close();
  });

  test('concurrent writes all commit, each with its own result, visible to other connections', async () => {
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => writer.execute(insert(`a${i}`))));
    assert.ok(results.every((r) => r.changes === 1));
    const other = openSqliteFile(path);
    try {
      assert.equal(other.prepare("SELECT count(*) FROM t WHERE id LIKE 'a%'").pluck().get(), 500);
    } finally {
      other.close();
    }
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

  test('a group applies all its statements or none, and its failure leaves the batch’s other writes alone', async () => {
    const count = (prefix: string) => raw.prepare('SELECT count(*) FROM t WHERE id LIKE ?').pluck().get(`${prefix}%`);
    const outcomes = await Promise.allSettled([
      writer.execute(insert('h1')),
      // Its third statement collides with a row written earlier: the first two are undone too.
      writer.executeAll([insert('h2'), insert('h3'), insert('a1')]),
      writer.executeAll([
        insert('h4'),
        CompiledQuery.raw("UPDATE t SET note = 'y' WHERE id = ?", ['h1']),
        CompiledQuery.raw('SELECT note FROM t WHERE id = ?', ['h1']),
      ]),
      writer.execute(insert('h5')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.equal((outcomes[1] as PromiseRejectedResult).reason.code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
    assert.deepEqual((outcomes[2] as PromiseFulfilledResult<Array<{ rows: unknown[]; changes: number }>>).value, [
      { rows: [], changes: 1 },
      { rows: [], changes: 1 },
      { rows: [{ note: 'y' }], changes: 0 },
    ]);
    assert.deepEqual(raw.prepare("SELECT id FROM t WHERE id LIKE 'h%' ORDER BY id").pluck().all(), ['h1', 'h4', 'h5']);
    assert.equal(count('h2'), 0);
  });

  test('a group’s condition is asked when its batch runs, after exclusive work: no, and nothing of it is applied', async () => {
    let open = true;
    let release!: () => void;
    const held = writer.exclusive(() => new Promise<void>((r) => (release = r)));
    const group = writer.executeAll([insert('k1'), insert('k2')], () => open);
    const other = writer.executeAll([insert('k3')], () => open === false);
    await turn();
    await turn();
    open = false;
    release();
    await held;
    assert.equal(await group, undefined);
    assert.deepEqual(await other, [{ rows: [], changes: 1 }]);
    assert.deepEqual(raw.prepare("SELECT id FROM t WHERE id LIKE 'k%' ORDER BY id").pluck().all(), ['k3']);
  });

  test('reads in a batch return rows', async () => {
    const { rows } = await writer.execute(CompiledQuery.raw('SELECT note FROM t WHERE id = ?', ['a7']));
    assert.deepEqual(rows, [{ note: 'x' }]);
  });

  test('a batch never runs inside exclusive work that holds a transaction across turns', async () => {
    // A batch inside the open transaction would fail at BEGIN; the exclusive work would then fail at COMMIT.
    let chain: Promise<unknown> = Promise.resolve();
    const work: Array<Promise<unknown>> = [];
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 20; i++) work.push(writer.execute(insert(`c${round}-${i}`)));
      work.push(
        writer.exclusive(() => {
          chain = chain.then(async () => {
            raw.exec('BEGIN IMMEDIATE');
            await turn();
            await new Promise((r) => setTimeout(r, 1));
            raw.prepare('INSERT INTO t (id, note) VALUES (?, ?)').run(`main-${round}`, 'm');
            raw.exec('COMMIT');
          });
          return chain;
        }),
      );
    }
    await Promise.all(work);
    assert.equal(raw.prepare("SELECT count(*) FROM t WHERE id LIKE 'c%'").pluck().get(), 400);
    assert.equal(raw.prepare("SELECT count(*) FROM t WHERE id LIKE 'main-%'").pluck().get(), 20);
  });

  test('a refused write rejects with the code the error mapping knows (read-only store)', async () => {
    raw.pragma('query_only = ON');
    try {
      await assert.rejects(writer.execute(insert('d1')), (e: { code?: string }) => e.code?.startsWith('SQLITE_READONLY') ?? false);
    } finally {
      raw.pragma('query_only = OFF');
    }
    assert.equal((await writer.execute(insert('d1'))).changes, 1);
  });

  test('stop waits for queued writes', async () => {
    const second = new SqliteWriter(raw, `${path}-wal`);
    const pending = Array.from({ length: 100 }, (_, i) => second.execute(insert(`f${i}`)));
    await second.stop();
    assert.ok((await Promise.all(pending)).every((r) => r.changes === 1));
    assert.equal(raw.prepare("SELECT count(*) FROM t WHERE id LIKE 'f%'").pluck().get(), 100);
  });
});

describe('SqliteWriter: told of each commit', () => {
  test("a batch's commit is told once, when its rows are visible to other connections", async () => {
    const path = join(tempDir(), 'c.db');
    const raw = openSqliteFile(path);
    raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    const other = openSqliteFile(path);
    const seen: number[] = [];
    const writer = new SqliteWriter(raw, `${path}-wal`, { onCommit: () => seen.push(other.prepare('SELECT count(*) FROM t').pluck().get() as number) });
    try {
      await Promise.all([writer.execute(insert('c1')), writer.execute(insert('c2'))]);
      assert.deepEqual(seen, [2], 'one batch, one commit');
      await writer.execute(insert('c3'));
      assert.deepEqual(seen, [2, 3]);
    } finally {
      await writer.stop();
      other.close();
      raw.close();
    }
  });
});

describe('SqliteWriter durability: no write is answered before a sync that started after its commit', () => {
  test('answers wait for the sync; a write committed during a sync waits for the next one', async () => {
    const path = join(tempDir(), 'd.db');
    const raw = openSqliteFile(path);
    raw.pragma('synchronous = NORMAL');
    raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    const { held, syncFd } = heldSync(raw);
    const writer = new SqliteWriter(raw, `${path}-wal`, { syncFd });
    const answered: string[] = [];
    const write = (id: string) => writer.execute(insert(id)).then(() => answered.push(id));

    const first = [write('s1'), write('s2')];
    await until(() => held.length >= 1, 'sync 1 to start');
    assert.equal(held[0]!.rowsAtStart, 2, 'the first sync started after both rows were committed');
    await turn();
    assert.deepEqual(answered, [], 'committed but not synced: nobody is answered');

    // Committed while the first sync runs: the first sync does not cover it.
    const second = write('s3');
    await until(() => held.length >= 2, 'sync 2 to start');
    assert.equal(held[1]!.rowsAtStart, 3);
    held[0]!.release();
    await Promise.all(first);
    await turn();
    assert.deepEqual(answered.sort(), ['s1', 's2']);
    held[1]!.release();
    await second;
    assert.deepEqual(answered.sort(), ['s1', 's2', 's3']);

    // sync() covers commits made outside the batches (the group committer's transactions).
    raw.prepare('INSERT INTO t (id, note) VALUES (?, ?)').run('outside', 'o');
    let synced = false;
    const outside = writer.sync().then(() => (synced = true));
    await until(() => held.length >= 3, 'sync 3 to start');
    assert.equal(held[2]!.rowsAtStart, 4);
    await turn();
    assert.equal(synced, false);
    held[2]!.release();
    await outside;
    await writer.stop();
    raw.close();
  });

  test('a failed sync fails the writes it covered', async () => {
    const path = join(tempDir(), 'e.db');
    const raw = openSqliteFile(path);
    raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    const failing: SyncFd = (_fd, done) => setImmediate(() => done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
    const writer = new SqliteWriter(raw, `${path}-wal`, { syncFd: failing });
    await assert.rejects(writer.execute(insert('x1')), (e: { code?: string }) => e.code === 'EIO');
    await writer.stop();
    raw.close();
  });
});
