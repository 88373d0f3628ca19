/**
 * One VACUUM of the database file on a connection of its own (`sqlite-compaction.ts`), so the
 * event loop goes on serving while the file is rewritten.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from './sqlite-driver.js';

const { path } = workerData as { path: string };
const db = new Database(path);
try {
  db.pragma('busy_timeout = 5000');
  db.exec('VACUUM');
  parentPort!.postMessage({ ok: true });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: (error as Error).message, code: (error as { code?: string }).code });
} finally {
  db.close();
}
