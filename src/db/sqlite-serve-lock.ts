import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { privateFile } from '../platform/private-files.js';
import { Database } from './sqlite-driver.js';

/** Another process serves the SQLite file already. */
export class AlreadyServed extends Error {
  override name = 'AlreadyServed';
}

// Held until the process ends: a lock's connection that were collected would let go of it.
const held = new Map<string, BetterSqlite3.Database>();

/**
 * One serving process per SQLite file (docs/DEPLOYMENT.md): an exclusive SQLite lock on
 * `<file>-serve.lock`, beside the file, held until `release` or the end of the process. The lock
 * is the kernel's (fcntl, through SQLite), so it goes with the process however that ends: a crash
 * or SIGKILL leaves nothing stale, and no recorded pid can be mistaken for a live one after a
 * restart. The CLI's commands do not take it; they take turns on the database file itself.
 * Throws AlreadyServed when another process (or this one) holds it.
 */
export function lockForServing(path: string): { file: string; release(): void } {
  const file = `${path}-serve.lock`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  privateFile(file);
  const db = new Database(file, { timeout: 0 });
  try {
    // Kept after the transaction, were it ever to end; nothing is ever written to this file.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new AlreadyServed(
        `Another Assay is serving ${path} (it holds ${file}); one process per SQLite file: stop it first, or give this one a DATA_DIR of its own`,
      );
    }
    throw error;
  }
  held.set(file, db);
  return {
    file,
    release() {
      if (held.get(file) !== db) return;
      held.delete(file);
      db.close();
    },
  };
}
