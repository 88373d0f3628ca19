import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The data directory and what is in it (the SQLite file, its WAL and SHM, secret.key) hold
 * personal data and keys: owner-only. Created that way, and tightened at start when an older
 * version or an operator left them readable.
 */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode;
  // A shared sticky directory (DATA_DIR=/tmp, say) is not ours to close.
  if (mode & 0o1000) return;
  if (mode & 0o077) tighten(dir, 0o700);
}

/** Creates `path` empty and owner-only if missing; tightens it if it exists. */
export function privateFile(path: string, create = true): void {
  if (create) closeSync(openSync(path, 'a', 0o600));
  tighten(path, 0o600);
}

function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    // Missing (no WAL yet), or another user's file: nothing to tighten here.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
