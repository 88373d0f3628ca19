import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { BIN, inherited, runCli } from './cli.js';
import type { IssuedCredentials } from '../../src/tenancy/provision.js';
import { portOnceListening } from './ports.js';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  output(): string;
  /** Resolves once the output holds `text`; fails after `ms` or if the process exits first. */
  waitForOutput(text: string, ms?: number): Promise<void>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * `bin/assay serve` on loopback, with `env` on top of what every test server gets; stdout and stderr
 * piped. Without a PORT in `env` it listens on a port of its own choosing (PORT=0): a port picked
 * here and bound later can be taken meanwhile by another test's process.
 */
export function spawnServe(env: Record<string, string>): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(BIN, ['serve'], {
    env: { ...inherited(), HOST: '127.0.0.1', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * `bin/assay serve` in its own process, as an operator runs it; resolves once it listens. The start's
 * deadline leaves room for a machine kept busy by other work (load 20: over 20 s), within the suite hook's.
 */
export async function spawnServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawnServe(env);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  // bin/assay execs node (env -S), so the child's pid is the server's.
  const port = await portOnceListening(child, deadline);
  const url = `http://127.0.0.1:${port}`;
  while (
    port === undefined ||
    !(await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
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
    async waitForOutput(text, ms = 30_000) {
      const until = Date.now() + ms;
      while (!out.includes(text)) {
        if (child.exitCode !== null) throw new Error(`assay serve exited with ${child.exitCode} before printing "${text}":\n${out}`);
        if (Date.now() > until) throw new Error(`assay serve did not print "${text}" within ${ms} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface CliProcess {
  child: ChildProcess;
  /** Waits for a stdout line that `match` accepts (lines already printed count), or fails after `ms`. */
  line<T>(match: (line: string) => T | undefined, ms?: number): Promise<T>;
  /** Everything printed so far, stdout then stderr. */
  output(): string;
  stop(): Promise<number | null>;
}

/** A long-running bin/assay command (webhook listen), read line by line. */
export function spawnCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(BIN, args, { env: { ...inherited(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    const parts = (partial + d.toString('utf8')).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let read = 0;
  return {
    child,
    async line(match, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        while (read < lines.length) {
          const found = match(lines[read++]!);
          if (found !== undefined) return found;
        }
        if (child.exitCode !== null) throw new Error(`bin/assay ${args.join(' ')} exited with ${child.exitCode}: ${err}`);
        if (Date.now() > deadline) throw new Error(`no matching line from bin/assay ${args.join(' ')} within ${ms} ms; got:\n${lines.join('\n')}\n${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    output: () => [...lines, partial].join('\n') + err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      // Room for a busy machine; only a command that ignores SIGTERM waits it out.
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** What an operator does before `bin/assay serve`: a tenant with one key, made with `bin/assay tenant create` on `env`'s database. */
export async function operatorTenant(env: Record<string, string>, name = 'operator', portalDomain = 'https://p.test'): Promise<IssuedCredentials> {
  const created = await runCli(['tenant', 'create', '--name', name, '--portal-domain', portalDomain, '--json'], env);
  if (created.code !== 0) throw new Error(`tenant create failed: ${created.stderr}`);
  return JSON.parse(created.stdout) as IssuedCredentials;
}

/** A child expected to exit by itself: its exit code (null when killed at the deadline) and what it printed. */
export async function exitOf(
  child: ChildProcessByStdio<null, Readable, Readable>,
  deadlineMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
