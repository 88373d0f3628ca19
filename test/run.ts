/**
 * `npm test`: starts one embedded PostgreSQL for the whole run (unless TEST_DATABASE_URL names
 * one), then runs every compiled test file with node:test; then runs them again under Node.js 24
 * (SQLite, without the browser tests). Arguments filter test files by substring:
 * `npm test -- api/candidate` (the Node.js 24 pass then only with ASSAY_TEST_NODE24=1).
 * A full run lints first (`npm run lint`: ESLint, then Prettier's check) and fails on a finding
 * before any test runs; ASSAY_TEST_LINT=0 leaves the lint out, ASSAY_TEST_LINT=1 adds it to a filtered run.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from './helpers/postgres.js';
import { ensureNode24, NODE24_VERSION } from './node24.js';

const here = fileURLToPath(new URL('.', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  // Under os.tmpdir(): when run as root, PostgreSQL runs as a `postgres` user that cannot enter /root.
  const dir = mkdtempSync(join(tmpdir(), 'assay-pg-'));
  const { server, port } = await startEmbeddedPostgres({
    dir,
    persistent: false,
    flags: ['-c', 'max_connections=400', '-c', 'fsync=on'],
    onError: (e: unknown) => process.stderr.write(`postgres: ${String(e)}\n`),
  });
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const filters = process.argv.slice(2);
const files = testFiles(here)
  .filter((f) => filters.length === 0 || filters.some((x) => relative(here, f).includes(x)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`No test files match ${filters.join(' ')}\n`);
  process.exit(1);
}

/** ESLint and Prettier's check at once (two cores), each one's output shown when both are done; true when neither found anything. */
async function lint(): Promise<boolean> {
  const root = join(here, '..', '..');
  const run = (script: string, args: string[]) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'node_modules', script), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (c, signal) => resolve({ code: c ?? (signal ? 1 : 0), output }));
    });
  process.stdout.write('Lint: ESLint and Prettier (npm run lint)\n');
  const [eslint, prettier] = await Promise.all([run('eslint/bin/eslint.js', ['.']), run('prettier/bin/prettier.cjs', ['--check', '.'])]);
  process.stdout.write(eslint.output + prettier.output);
  if (eslint.code !== 0) process.stderr.write('\nThe lint failed: ESLint found the problems above; fix them, then `npm run lint`.\n');
  if (prettier.code !== 0) process.stderr.write('\nThe lint failed: Prettier would format the files above differently; run `npm run format`.\n');
  return eslint.code === 0 && prettier.code === 0;
}

const wantsLint = process.env.ASSAY_TEST_LINT ?? (filters.length === 0 ? '1' : '0');
if (wantsLint === '1') {
  if (!(await lint())) process.exit(1);
} else if (filters.length === 0) {
  process.stdout.write('Lint left out (ASSAY_TEST_LINT=0)\n');
}

const wantsPostgres = (process.env.ASSAY_TEST_DATABASES ?? 'sqlite,postgres').includes('postgres');
let postgres: { url: string; stop: () => Promise<void> } | undefined;
if (wantsPostgres && !process.env.TEST_DATABASE_URL) postgres = await startPostgres();
const pgUrl = process.env.TEST_DATABASE_URL ?? postgres?.url;

// What the tests leave in the temp directory (data folders, databases, keys) goes with the run: a
// folder of its own for the test processes, removed at the end. 0711: an embedded PostgreSQL a test
// starts runs as the `postgres` user when run as root, and passes through it.
const runTemp = mkdtempSync(join(tmpdir(), 'assay-run-'));
chmodSync(runTemp, 0o711);

function runFiles(node: string, selected: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // Every test, suite and hook has a deadline of its own (test/helpers/deadline.ts, harness.ts); this
  // one is each file's, a last stop for a hang: a file's suites add up, and on a busy machine the body
  // storm's alone took over 300 s.
  const args = ['--test', `--test-concurrency=${process.env.ASSAY_TEST_CONCURRENCY ?? '2'}`, '--test-timeout=1800000', '--test-reporter=spec', ...selected];
  const child = spawn(node, args, { stdio: 'inherit', env: { ...env, TMPDIR: runTemp } });
  return new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
}

/** Both passes; the second under Node.js 24 (see below). */
async function bothPasses(): Promise<number> {
  let code = await runFiles(process.execPath, files, { ...process.env, ...(pgUrl ? { TEST_PG_URL: pgUrl } : {}) });
  await postgres?.stop();

  // The second pass: the same build under Node.js 24, all but the browser and PostgreSQL parts. It runs
  // with every full run (no filters), or when ASSAY_TEST_NODE24=1 asks; ASSAY_TEST_NODE24=0 leaves it out.
  const second = process.env.ASSAY_TEST_NODE24 ?? (filters.length === 0 ? '1' : '0');
  if (second === '1' && Number(process.versions.node.split('.')[0]) < 24) {
    const { node, nodePath } = ensureNode24();
    const selected = files.filter((f) => !relative(here, f).startsWith('e2e'));
    process.stdout.write(`\nThe same tests under Node.js ${NODE24_VERSION} (SQLite, no browser): ${selected.length} files\n`);
    // PATH first: bin/assay, spawned by the tests, runs on the `node` it finds there.
    const env: NodeJS.ProcessEnv = { ...process.env, ASSAY_TEST_DATABASES: 'sqlite', NODE_PATH: nodePath, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };
    delete env.TEST_PG_URL;
    code = (await runFiles(node, selected, env)) || code;
  }
  return code;
}

let code: number;
try {
  code = await bothPasses();
} finally {
  try {
    rmSync(runTemp, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    process.stderr.write(`could not remove ${runTemp}: ${String(error)}\n`);
  }
}
process.exit(code);
