/**
 * The checkpoint thread of `sqlite-checkpointer.ts`. Under synchronous=NORMAL a checkpoint syncs
 * the WAL before it copies and the database file after, so restarting the log never outruns
 * durability. PASSIVE never waits for the writer, and the writer never waits for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from './sqlite-driver.js';

const { path, everyMs } = workerData as { path: string; everyMs: number };
const db = new Database(path);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const port = parentPort!;

function run(): void {
  try {
    checkpoint.run();
  } catch {
    // Best effort: what it would copy is already durable in the WAL.
  }
}

// The bulk, beside the writes; then the main thread pauses writes and asks to finish.
let timer = setTimeout(copy, everyMs);
function copy(): void {
  run();
  port.postMessage('copied');
}

port.on('message', (message: 'finish' | 'stop') => {
  run();
  if (message === 'finish') {
    port.postMessage('finished');
    timer = setTimeout(copy, everyMs);
    return;
  }
  clearTimeout(timer);
  db.close();
  port.close();
});
