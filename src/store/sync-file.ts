import { open } from 'node:fs/promises';

/**
 * Makes what was written to a file durable: fdatasync on the libuv thread pool, so the calling
 * thread keeps working while the disk does. Opened per call: if SQLite ever recreated the WAL
 * file, an old descriptor would sync the wrong file.
 */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
