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
  function setUp(name: string) {
    const path = join(tempDir(), name);
    const raw = openSqliteFile(path);
    raw.pragma('synchronous = NORMAL');
    // Only the checkpointer may checkpoint, as in the server.
    raw.pragma('wal_autocheckpoint = 0');
    raw.pragma('journal_size_limit = 65536');
    raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    const writer = new SqliteWriter(raw, `${path}-wal`);
    const checkpointer = new SqliteCheckpointer(path, 50, (fn) => writer.exclusive(fn));
    return {
      path,
      writer,
      async close() {
        await writer.stop();
        await checkpointer.stop();
        raw.close();
      },
    };
  }

  test('the WAL is checkpointed back into the database file while writes go on', async () => {
    const { path, writer, close } = setUp('c.db');
    try {
      const before = statSync(path).size;
      for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 50 }, (_, j) => writer.execute(insert(`e${i}-${j}`, 'y'.repeat(500)))));
      // 500 rows of 500 bytes reach the database file itself, not only the log. The checkpointer
      // runs every 50 ms in a worker thread, which a loaded machine may schedule late: wait for it.
      const grown = () => statSync(path).size - before >= 250_000;
      await eventually(async () => (grown() ? true : undefined), 10_000, 'a checkpoint into the database file').catch(() => undefined);
      assert.ok(grown(), `database file grew from ${before} to ${statSync(path).size}`);
    } finally {
      await close();
    }
  });

  test('under writes that never stop, the log still starts afresh: it does not grow without bound', async () => {
    const { path, writer, close } = setUp('w.db');
    try {
      let written = 0;
      const until = Date.now() + 1_500;
      // Each write is issued as soon as the previous one is answered, so there is never a quiet moment.
      await Promise.all(
        Array.from({ length: 20 }, async (_, lane) => {
          for (let i = 0; Date.now() < until; i++) {
            await writer.execute(insert(`w${lane}-${i}`, 'z'.repeat(400)));
            written += 400;
          }
        }),
      );
      const wal = statSync(`${path}-wal`).size;
      assert.ok(written > 1_000_000, `only ${written} bytes written`);
      // Every row dirties a 4 KiB page: a log that never starts afresh ends up many times larger than the rows.
      assert.ok(wal < written, `the WAL is ${wal} bytes after ${written} bytes of rows`);
    } finally {
      await close();
    }
  });
});
