/**
 * Runs in a worker thread and checkpoints the WAL back into the database file when asked.
 * The serving connection has auto-checkpoints off, so a checkpoint's fsyncs never stall
 * the event loop; the group committer asks between commits, so the checkpoint can copy the
 * whole log and the next write starts the log afresh (it does not grow without bound).
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const db = new BetterSqlite3((workerData as { path: string }).path);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

parentPort!.on('message', (message: { id: number; op: 'checkpoint' | 'stop' }) => {
  try {
    checkpoint.run();
    parentPort!.postMessage({ id: message.id, ok: true });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, ok: false, error: (error as Error).message });
  }
  if (message.op === 'stop') {
    db.close();
    parentPort!.close();
  }
});
