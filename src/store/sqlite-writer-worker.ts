/**
 * The SQLite writer: a worker thread with its own connection that runs the server's
 * single-statement writes (`Store.execute`) in batches. Each batch is one transaction; its
 * results go back only after an fdatasync of the WAL that started after its COMMIT, so an
 * answer still means the rows are on disk. One fdatasync covers every batch committed before
 * it. Between syncs it checkpoints the WAL.
 */
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { OpResult, WriterReply, WriterRequest } from './sqlite-writer.js';

const { path, checkpointEveryMs } = workerData as { path: string; checkpointEveryMs: number };
const db = new BetterSqlite3(path);
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
// COMMIT writes the WAL; the explicit fdatasync below makes it durable before anyone hears of it.
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
// The log is reused after each whole checkpoint; this trims what a burst left behind.
db.pragma('journal_size_limit = 16777216');
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
const rollback = db.prepare('ROLLBACK');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const sqlText: string[] = [];
const statements: BetterSqlite3.Statement[] = [];
const port = parentPort!;

function errorOf(error: unknown): { code?: string; message: string } {
  const e = error as { code?: unknown; message?: unknown };
  return { ...(typeof e.code === 'string' && { code: e.code }), message: String(e.message ?? error) };
}

function reply(message: WriterReply[]): void {
  port.postMessage(JSON.stringify(message));
}

function runBatch(request: Extract<WriterRequest, { kind: 'batch' }>): OpResult[] {
  for (const [id, sql] of request.prepare ?? []) sqlText[id] = sql;
  const ops = JSON.parse(request.ops) as Array<[number, unknown[]]>;
  const results: OpResult[] = [];
  begin.run();
  for (const [id, params] of ops) {
    try {
      // Prepared at first use, inside the try: a statement that cannot compile fails alone, and again next time.
      const statement = (statements[id] ??= db.prepare(sqlText[id]!));
      results.push(statement.reader ? { rows: statement.all(...params) } : statement.run(...params).changes);
    } catch (error) {
      // A constraint error undoes only its own statement. After SQLITE_FULL or an I/O error
      // SQLite has rolled the whole transaction back: then nothing in the batch was written.
      if (!db.inTransaction) throw error;
      results.push({ error: errorOf(error) });
    }
  }
  try {
    commit.run();
  } catch (error) {
    if (db.inTransaction) rollback.run();
    throw error;
  }
  return results;
}

let lastCheckpoint = Date.now();

// Safe with a sync in flight: under synchronous=NORMAL a checkpoint syncs the WAL before it
// copies and the database file after, so a WAL restart never outruns durability.
function maybeCheckpoint(): void {
  if (Date.now() - lastCheckpoint < checkpointEveryMs) return;
  lastCheckpoint = Date.now();
  try {
    checkpoint.run();
  } catch {
    // Best effort: what it would copy is already durable in the WAL.
  }
}

const idleCheckpoints = setInterval(maybeCheckpoint, checkpointEveryMs);

// Batches committed but not yet covered by a sync. The sync waits until this turn's messages
// are all committed, then one fdatasync covers them; batches that arrive meanwhile wait for the
// next. It blocks this thread, not the event loop, and saves a hand-off to the thread pool.
let unsynced: WriterReply[] = [];
let syncing = false;
// Kept open: while this connection is open SQLite never deletes or replaces the WAL file.
let walFd: number | undefined;

function syncWal(): void {
  try {
    walFd ??= openSync(`${path}-wal`, 'r');
    fdatasyncSync(walFd);
  } catch (error) {
    // Opened afresh next time, in case the descriptor itself is what failed.
    if (walFd !== undefined) closeSync(walFd);
    walFd = undefined;
    throw error;
  }
}

function syncCommitted(): void {
  if (syncing || unsynced.length === 0) return;
  syncing = true;
  setImmediate(() => {
    const covered = unsynced;
    unsynced = [];
    try {
      syncWal();
      reply(covered);
    } catch (error) {
      reply(covered.map(({ seq }) => ({ seq, failed: errorOf(error) })));
    }
    syncing = false;
    maybeCheckpoint();
  });
}

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'stop') {
    clearInterval(idleCheckpoints);
    const finish = () => {
      if (syncing) return void setTimeout(finish, 1);
      try {
        checkpoint.run();
      } catch {
        // The data is durable in the WAL; the next start checkpoints it.
      }
      if (walFd !== undefined) closeSync(walFd);
      db.close();
      port.close();
    };
    finish();
    return;
  }
  if (request.kind === 'pragma') {
    try {
      db.pragma(request.sql);
      reply([{ seq: request.seq }]);
    } catch (error) {
      reply([{ seq: request.seq, failed: errorOf(error) }]);
    }
    return;
  }
  try {
    unsynced.push({ seq: request.seq, results: runBatch(request) });
  } catch (error) {
    reply([{ seq: request.seq, failed: errorOf(error) }]);
    return;
  }
  syncCommitted();
});
