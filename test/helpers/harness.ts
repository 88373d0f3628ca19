import type { ChildProcess, ChildProcessByStdio } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { after, before } from 'node:test';
import type { IssuedCredentials } from '../../src/tenancy/provision.js';
import { describe } from './deadline.js';
import { freshDatabaseUrl, testDatabases, type DatabaseKind } from './databases.js';
import { apiClient } from './http.js';
import { operatorTenant, spawnServe, spawnServer, type ServerProcess } from './process.js';
import { Receiver } from './receiver.js';
import { mailEnv, SmtpSink } from './smtp-sink.js';
import { startServer, tempDir, type ServerOptions, type TestServer } from './server.js';

/** How long the suite's start and its teardown may take, each, before the hook fails. */
const HOOK_DEADLINE_MS = 120_000;

const NAMES: Record<DatabaseKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export interface SuiteOptions {
  /** Settings for the suite's server, on top of the test defaults (test/helpers/server.ts). */
  env?: Record<string, string>;
  /** Options for the suite's server (a DNS resolver, a PDF thread's file). */
  serverOptions?: ServerOptions;
  /** false: no server at the start; the suite's tests start their own with `ctx.another`. */
  start?: boolean;
  /** The suite's own tenant (ctx.creds, ctx.api); false for a suite whose tests make their own. */
  tenant?: false | { name?: string; portalDomain?: string | ((at: { url: string; db: DatabaseKind }) => string) };
  /** A webhook receiver (ctx.receiver), started before the server and closed after it. */
  receiver?: boolean;
  /** An SMTP server (ctx.sink), started before the server, which then sends its mail there. */
  smtp?: boolean;
  /**
   * Which databases: each of the run's (the default); one database alone, which shows as skipped,
   * with why, in a run without it; or 'first', the first of the run's, for a suite whose checks do
   * not depend on the database.
   */
  on?: DatabaseKind | 'first';
  /** The suite's deadline, when it is not the default one (test/helpers/deadline.ts). */
  timeout?: number;
  /**
   * true: the suite's servers are `bin/assay serve`, each in a process of its own as an operator
   * runs it (test/helpers/process.ts), for suites whose subject is the process: its start, signals,
   * exit or log. The tenant is made with bin/assay before the server starts, even with `start: false`.
   */
  process?: boolean;
}

export interface SuiteContext {
  db: DatabaseKind;
  /** The suite's server. Like every handle here it is ready in hooks and tests, not while the suite registers. */
  server: TestServer;
  /** The suite's tenant: one user and one key. */
  creds: IssuedCredentials;
  /** An API client with the suite's tenant's credentials. */
  api: ReturnType<typeof apiClient>;
  receiver: Receiver;
  /** The suite's SMTP server, when asked for (options.smtp). */
  sink: SmtpSink;
  /** What bin/assay needs, on top of PATH, to work on the suite's database and data directory. */
  cliEnv: Record<string, string>;
  /** Another server on the suite's database, stopped at the suite's teardown unless stopped before. */
  another(env?: Record<string, string>, options?: ServerOptions): Promise<TestServer>;
  /** A process suite's server (options.process). */
  serverProcess: ServerProcess;
  /**
   * A process suite: `bin/assay serve` on the suite's database and data directory, with `env` on top
   * (a key set to undefined is left out), once it listens; killed at the teardown unless it has exited.
   */
  spawn(env?: Record<string, string | undefined>): Promise<ServerProcess>;
  /** A process suite: `bin/assay serve` as `spawn` starts it, not waited on, for a test of the start itself; killed at the teardown unless it has exited. */
  spawnChild(env?: Record<string, string | undefined>): ChildProcessByStdio<null, Readable, Readable>;
  /** An empty directory, removed at the suite's teardown. */
  freshDir(): string;
}

/**
 * A stand-in for a value that exists only once the suite has started: the suite's body closes
 * over it while registering, and its tests read through it to the real one.
 */
function handle<T extends object>(what: string, get: () => T | undefined): T {
  const real = (): T => {
    const value = get();
    if (value === undefined) throw new Error(`the suite's ${what} is not there: it exists in hooks and tests once the suite has started`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      if (key === 'then') return undefined;
      const target = real();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor(_, key) {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
  });
}

/**
 * A server whose stop may be called more than once: a test may stop it, and the teardown stops what
 * is left. `keepData`: what a stop does with its data folder unless told.
 */
function stoppedOnce(server: TestServer, keepData = false): TestServer {
  let stopping: Promise<void> | undefined;
  return Object.assign(Object.create(server) as TestServer, { stop: (keep = keepData) => (stopping ??= server.stop(keep)) });
}

/** Resolves once `child` has exited, killing it first if it has not. */
async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exit;
}

/** The databases a suite is registered on, each with the reason it is skipped there, if it is. */
function databasesFor(on: SuiteOptions['on']): { db: DatabaseKind; skip: string | false }[] {
  const run = testDatabases();
  if (on === undefined) return run.map((db) => ({ db, skip: false }));
  if (on === 'first') return run.slice(0, 1).map((db) => ({ db, skip: false }));
  return [{ db: on, skip: run.includes(on) ? false : `${NAMES[on]} only, and this run has no ${NAMES[on]} (ASSAY_TEST_DATABASES)` }];
}

/**
 * Registers the suite `name [db]` on each database (see `options.on`), owning what every server
 * suite needs: a server on a fresh database, a tenant with one key, a receiver if asked, and
 * their teardown, each hook with its own deadline. The body registers the tests and any hooks
 * of its own: its `before` hooks run after the server has started, its `after` hooks before it stops.
 */
export function suiteOnEachDatabase(name: string, options: SuiteOptions, body: (ctx: SuiteContext) => void): void {
  for (const { db, skip } of databasesFor(options.on)) {
    const suiteOptions = { ...(options.timeout ? { timeout: options.timeout } : {}), ...(skip ? { skip } : {}) };
    describe(`${name} [${db}]`, suiteOptions, () => {
      let server: TestServer | undefined;
      let creds: IssuedCredentials | undefined;
      let receiver: Receiver | undefined;
      let sink: SmtpSink | undefined;
      let serverProcess: ServerProcess | undefined;
      let processEnv: Record<string, string> | undefined;
      const others: TestServer[] = [];
      const processes: ServerProcess[] = [];
      const children: ChildProcess[] = [];
      const withProcessEnv = (env: Record<string, string | undefined>): Record<string, string> => {
        if (!processEnv) throw new Error('spawn is for a process suite (options.process), once it has started');
        return Object.fromEntries(Object.entries({ ...processEnv, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
      };
      const dirs: string[] = [];
      const ctx: SuiteContext = {
        db,
        server: handle('server', () => server),
        creds: handle('tenant', () => creds),
        api: handle('API client', () => (server && creds ? apiClient(server.url, creds) : undefined)),
        receiver: handle('receiver', () => receiver),
        sink: handle('SMTP server', () => sink),
        cliEnv: handle('CLI environment', () => processEnv ?? (server && { DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir })),
        async another(env = {}, serverOptions = {}) {
          // One on another server's folder leaves it at its stop: that server owns it.
          const other = stoppedOnce(await startServer(db, env, serverOptions), Boolean(serverOptions.reuse));
          others.push(other);
          return other;
        },
        serverProcess: handle('server process', () => serverProcess),
        async spawn(env = {}) {
          // One that fails to start has exited or been killed already.
          const running = await spawnServer(withProcessEnv(env));
          processes.push(running);
          return running;
        },
        spawnChild(env = {}) {
          const child = spawnServe(withProcessEnv(env));
          children.push(child);
          return child;
        },
        freshDir() {
          const dir = tempDir();
          dirs.push(dir);
          return dir;
        },
      };
      if (skip) return;
      before(
        async () => {
          if (options.receiver) receiver = await Receiver.start();
          if (options.smtp) sink = await SmtpSink.start();
          const env = sink ? mailEnv(sink, options.env) : (options.env ?? {});
          if (options.process) {
            const dataDir = ctx.freshDir();
            // As for a server in this process (test/helpers/server.ts): no drain on SIGTERM and no
            // event-loop guard, unless the suite's subject is the drain or shedding.
            processEnv = {
              DATA_DIR: dataDir,
              DEMO_TENANT: 'false',
              LOG_LEVEL: 'warn',
              SHUTDOWN_DRAIN_MS: '0',
              OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
              DATABASE_URL: await freshDatabaseUrl(db, dataDir),
              ...env,
            };
            const domain = options.tenant ? options.tenant.portalDomain : undefined;
            if (typeof domain === 'function') throw new Error("a process suite's tenant is made before its server listens: its portal domain is a string");
            if (options.tenant !== false) creds = await operatorTenant(processEnv, options.tenant?.name, domain);
            if (options.start !== false) serverProcess = await ctx.spawn();
            return;
          }
          if (options.start === false) return;
          server = stoppedOnce(await startServer(db, env, options.serverOptions ?? {}));
          if (options.tenant === false) return;
          const domain = options.tenant?.portalDomain;
          creds = await server.tenant(options.tenant?.name, typeof domain === 'function' ? domain({ url: server.url, db }) : domain);
        },
        { timeout: HOOK_DEADLINE_MS },
      );
      body(ctx);
      after(
        async () => {
          for (const other of others) await other.stop();
          await server?.stop();
          for (const p of processes) await p.stop('SIGKILL');
          for (const child of children) await killed(child);
          await receiver?.close();
          await sink?.close();
          for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
        },
        { timeout: HOOK_DEADLINE_MS },
      );
    });
  }
}
