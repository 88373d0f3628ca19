import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, freePort, inherited } from './cli.js';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  output(): string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** `bin/assay serve` in its own process, as an operator runs it; resolves once it listens. */
export async function spawnServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(BIN, ['serve'], {
    env: { ...inherited(), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  const url = `http://127.0.0.1:${port}`;
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`assay serve exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`assay serve did not start within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    child,
    port,
    url,
    output: () => out,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
