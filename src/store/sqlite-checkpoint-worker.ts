/**
 * The checkpoint thread of `sqlite-checkpointer.ts`. Under synchronous=NORMAL a checkpoint syncs
 * the WAL before it copies and the database file after, so restarting the log never outruns
 * durability. PASSIVE never waits for the writer, and the writer never waits for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const { path, everyMs } = workerData as { path: string; everyMs: number };
const db = new BetterSqlite3(path);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

function run(): void {
  try {
    checkpoint.run();
  } catch {
    // Best effort: what it would copy is already durable in the WAL.
  }
}

const timer = setInterval(run, everyMs);
parentPort!.on('message', () => {
  clearInterval(timer);
  run();
  db.close();
  parentPort!.close();
});
