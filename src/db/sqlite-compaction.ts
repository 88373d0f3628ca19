import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Rewrites the database file when a candidate was erased since the last rewrite, and says
 * whether it did.
 *
 * secure_delete zeroes a deleted row where it lies. But a B-tree page that SQLite rebuilds (a
 * split, or a rebalance when rows leave) keeps the bytes it no longer uses: copies of rows that
 * moved to other pages. When such a row is erased later, that copy stays. VACUUM writes every
 * page afresh, and the TRUNCATE checkpoint that follows (`truncateWal`) leaves no old page in
 * the log.
 *
 * The number of erasures covered is kept in the file's header (`user_version`, which Assay does
 * not otherwise use and VACUUM keeps), so a restart, or an erasure by the CLI in another process,
 * is still seen.
 */
export async function compactAfterErasures(raw: BetterSqlite3.Database, path: string, truncateWal: () => Promise<void>): Promise<boolean> {
  const erasures = raw.prepare('SELECT count(*) FROM erasures').pluck().get() as number;
  const covered = raw.pragma('user_version', { simple: true }) as number;
  if (erasures <= covered) return false;
  await vacuumOnWorker(path);
  raw.pragma(`user_version = ${Math.trunc(erasures)}`);
  await truncateWal();
  return true;
}

function vacuumOnWorker(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sqlite-vacuum-worker.js', import.meta.url), { workerData: { path } });
    let settled = false;
    worker.once('message', (m: { ok: boolean; message?: string; code?: string }) => {
      settled = true;
      if (m.ok) resolve();
      else reject(Object.assign(new Error(`VACUUM failed: ${m.message}`), { code: m.code }));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the VACUUM thread exited with ${code}`));
    });
  });
}
