import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type RunningApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { provisionTenant, type IssuedCredentials } from '../../src/provision.js';
import { freshDatabaseUrl, type DatabaseKind } from './databases.js';

export interface TestServer {
  url: string;
  dataDir: string;
  databaseUrl: string;
  running: RunningApp;
  /** A tenant with one user and one key, provisioned on `portalDomain`. */
  tenant(name?: string, portalDomain?: string): Promise<IssuedCredentials>;
  stop(): Promise<void>;
}

export function tempDir(prefix = 'assay-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

let tenantCounter = 0;

/** A real Assay server, in this process, listening on a free loopback port, on a fresh database. */
export async function startServer(kind: DatabaseKind = 'sqlite', env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = tempDir();
  const databaseUrl = await freshDatabaseUrl(kind, dataDir);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.ASSAY_TEST_LOG_LEVEL ?? 'silent',
    DEMO_TENANT: 'false',
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  });
  const running = await startApp(config);
  return {
    url: running.url,
    dataDir,
    databaseUrl,
    running,
    tenant: (name = `tenant-${process.pid}-${++tenantCounter}`, portalDomain = 'https://portal.example.test') =>
      provisionTenant(running.deps.store, name, portalDomain),
    async stop() {
      await running.stop(0);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
