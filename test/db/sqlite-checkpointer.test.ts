import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { describe, test } from '../helpers/deadline.js';
import { openSqliteFile } from '../../src/db/database.js';
import { SqliteCheckpointer } from '../../src/db/sqlite-checkpointer.js';
import { SqliteWriter } from '../../src/db/sqlite-writer.js';
import { eventually } from '../helpers/receiver.js';
import { tempDir } from '../helpers/server.js';

// The checkpointer beside the writer it pauses (sqlite-writer.test.ts has the writer's own tests).
const insert = (id: string, note = 'x') => CompiledQuery.raw('INSERT INTO t (id, note) VALUES (?, ?)', [id, note]);

describe('SqliteCheckpointer', () => {
  function setUp(name: string, options: { checkpoints?: boolean } = {}) {
    const path = join(tempDir(), name);
    const raw = openSqliteFile(path);
    raw.pragma('synchronous = NORMAL');
    // Only the checkpointer may checkpoint, as in the server.
    raw.pragma('wal_autocheckpoint = 0');
    raw.pragma('journal_size_limit = 65536');
    raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    const writer = new SqliteWriter(raw, `${path}-wal`);
    // Rounds finished: each ends with the writes paused while the worker copies the last frames.
    const rounds = { finished: 0 };
    const checkpointer =
      options.checkpoints === false
        ? undefined
        : new SqliteCheckpointer(path, 50, async (fn) => {
            await writer.exclusive(fn);
            rounds.finished++;
          });
    return {
      path,
      writer,
      rounds,
      async close() {
        await writer.stop();
        await checkpointer?.stop();
        raw.close();
      },
    };
  }

  /**
   * 20 lanes, each issuing a write as soon as its last is answered, so there is never a quiet
   * moment, until `enough()` says so after a write (or 60 s have passed); returns the bytes of rows written.
   */
  async function writeWithoutPause(writer: SqliteWriter, enough: (written: number) => boolean): Promise<number> {
    let written = 0;
    let done = false;
    const deadline = Date.now() + 60_000;
    await Promise.all(
      Array.from({ length: 20 }, async (_, lane) => {
        for (let i = 0; !done && Date.now() < deadline; i++) {
          await writer.execute(insert(`w${lane}-${i}`, 'z'.repeat(400)));
          written += 400;
          done ||= enough(written);
        }
      }),
    );
    return written;
  }

  test('the WAL is checkpointed back into the database file while writes go on', async () => {
    const { path, writer, rounds, close } = setUp('c.db');
    try {
      const before = statSync(path).size;
      for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 50 }, (_, j) => writer.execute(insert(`e${i}-${j}`, 'y'.repeat(500)))));
      // 500 rows of 500 bytes reach the database file itself, not only the log, once a checkpoint
      // round that began after the writes has finished: the first to finish may have begun before.
      const after = rounds.finished;
      await eventually(async () => (rounds.finished >= after + 2 ? true : undefined), 30_000, 'two checkpoint rounds after the writes');
      assert.ok(statSync(path).size - before >= 250_000, `database file grew from ${before} to ${statSync(path).size}`);
    } finally {
      await close();
    }
  });

  test('under writes that never stop, the log still starts afresh: it does not grow without bound', async () => {
    const { path, writer, rounds, close } = setUp('w.db');
    try {
      // Past 1 MB of rows, the writes stop as soon as another checkpoint round has finished: the
      // next write started the log afresh, whatever the machine's speed.
      let roundsAtMb: number | undefined;
      const written = await writeWithoutPause(writer, (bytes) => {
        if (bytes < 1_000_000) return false;
        roundsAtMb ??= rounds.finished;
        return rounds.finished > roundsAtMb;
      });
      // A write is answered only once the WAL is synced, so the last answers may be for writes
      // committed before the round: one write begun after it is what starts the log afresh.
      await writer.execute(insert('after-the-round'));
      const wal = statSync(`${path}-wal`).size;
      assert.ok(roundsAtMb !== undefined && rounds.finished > roundsAtMb, `${rounds.finished} checkpoint rounds finished in 60 s, ${written} bytes written`);
      // Every row dirties a 4 KiB page: a log that never starts afresh ends up many times larger than the rows.
      assert.ok(wal < written, `the WAL is ${wal} bytes after ${written} bytes of rows`);
    } finally {
      await close();
    }
  });

  test('control: without the checkpointer, the same writes leave a log larger than the rows', async () => {
    const { path, writer, close } = setUp('n.db', { checkpoints: false });
    try {
      const written = await writeWithoutPause(writer, (bytes) => bytes >= 1_000_000);
      const wal = statSync(`${path}-wal`).size;
      assert.ok(written >= 1_000_000, `${written} bytes written in 60 s`);
      assert.ok(wal > written, `the WAL is ${wal} bytes after ${written} bytes of rows`);
    } finally {
      await close();
    }
  });
});
