import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type RunningApp, type StartOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openSqliteFile } from '../../src/db/database.js';
import { provisionTenant, type IssuedCredentials } from '../../src/tenancy/provision.js';
import type { Resolver } from '../../src/webhooks/dns.js';
import { freshDatabaseUrl, type DatabaseKind } from './databases.js';

export interface TestServer {
  url: string;
  dataDir: string;
  databaseUrl: string;
  running: RunningApp;
  /** A tenant with one user and one key, provisioned on `portalDomain`. */
  tenant(name?: string, portalDomain?: string): Promise<IssuedCredentials>;
  /** Stops gracefully; removes the data directory unless `keepData`. */
  stop(keepData?: boolean): Promise<void>;
}

export function tempDir(prefix = 'assay-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

let tenantCounter = 0;

export interface ServerOptions {
  /** Reopen an earlier server's data directory and database instead of fresh ones. */
  reuse?: { dataDir: string; databaseUrl: string };
  resolver?: Resolver;
  /** The file PDF threads render with (test/helpers/gated-pdf-worker.ts holds its thread until told). */
  pdfWorker?: URL;
  /** Called after each step of the start (src/app.ts); a test throws from it to fail the start there. */
  afterStep?: StartOptions['afterStep'];
}

/** A real Assay server, in this process, listening on a free loopback port, on a fresh database. */
export async function startServer(kind: DatabaseKind = 'sqlite', env: Record<string, string> = {}, options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.reuse?.dataDir ?? tempDir();
  const databaseUrl = options.reuse?.databaseUrl ?? (await freshDatabaseUrl(kind, dataDir));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.ASSAY_TEST_LOG_LEVEL ?? 'silent',
    DEMO_TENANT: 'false',
    SHUTDOWN_DRAIN_MS: '0',
    // Off: on a machine busy with other work the event-loop guard sheds a test's requests with 503.
    // Suites that check shedding, or that nothing is shed, turn it on (security/overload, api/report.errors).
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const running = await startApp(config, {
    ...(options.resolver ? { resolver: options.resolver } : {}),
    ...(options.pdfWorker ? { pdfWorker: options.pdfWorker } : {}),
    ...(options.afterStep ? { afterStep: options.afterStep } : {}),
  });
  return {
    url: running.url,
    dataDir,
    databaseUrl,
    running,
    tenant: (name = `tenant-${process.pid}-${++tenantCounter}`, portalDomain = 'https://portal.example.test') =>
      provisionTenant(running.deps.store, name, portalDomain),
    async stop(keepData = false) {
      await running.stop(0);
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A connection of its own to a SQLite server's file, as the CLI or another process has one. */
export function otherConnection(server: Pick<TestServer, 'databaseUrl'>): ReturnType<typeof openSqliteFile> {
  return openSqliteFile(server.databaseUrl.slice('sqlite:'.length));
}
