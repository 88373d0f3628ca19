/**
 * The thread of `SqliteBackgroundReader`: reads that may visit a whole table run here, on a
 * connection of their own, so the serving thread never waits for them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from './sqlite-driver.js';

const { path } = workerData as { path: string };
const db = new Database(path);
db.pragma('busy_timeout = 5000');
db.pragma('query_only = ON');
const port = parentPort!;

port.on('message', (message: { id: number; sql: string; params: unknown[] } | 'stop') => {
  if (message === 'stop') {
    db.close();
    port.close();
    return;
  }
  try {
    port.postMessage({ id: message.id, rows: db.prepare(message.sql).all(...message.params) });
  } catch (error) {
    port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
