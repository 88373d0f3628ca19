import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../src/platform/paths.js';

export const BIN = join(ROOT, 'bin', 'assay');

/**
 * What a spawned bin/assay inherits from the test run: PATH, which picks the Node.js that runs it,
 * and NODE_PATH, where the Node.js 24 pass keeps the better-sqlite3 for that Node.js.
 */
export function inherited(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', ...(process.env.NODE_PATH ? { NODE_PATH: process.env.NODE_PATH } : {}) };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs bin/assay as an operator would, with only the given environment on top of PATH. A command
 * still running after `timeoutMs` is killed, and its result says so.
 */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { env: { ...inherited(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      stderr += `\n[killed: still running after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port that was free a moment ago, for servers that must know their URL before they listen. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** `bin/assay portal set --key <apiKeyId> …settings --json`, which must succeed. */
export async function portalSet(apiKeyId: string, env: Record<string, string>, ...settings: string[]): Promise<void> {
  const r = await runCli(['portal', 'set', '--key', apiKeyId, ...settings, '--json'], env);
  if (r.code !== 0) throw new Error(`portal set ${settings.join(' ')}: exit ${r.code}: ${r.stderr}`);
}
