import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/platform/paths.js';
import { inherited } from '../test/helpers/cli.js';
import { peakRssMb } from '../test/helpers/load.js';
import { portOnceListening } from '../test/helpers/ports.js';

export interface Child {
  child: ChildProcess;
  url: string;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, path: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    const ok = await fetch(url + path, { method: path === '/' ? 'POST' : 'GET', body: path === '/' ? '{"ExternalId":"warm"}' : undefined }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

// A bench that crashes must not leave its servers behind: they would keep its output open (so a
// caller waiting for it waits on) and keep their ports and CPU.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function wrap(child: ChildProcess, url: string): Child {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return {
    child,
    url,
    peakRssMb: () => peakRssMb(child.pid!),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * `bin/assay serve` with its log lines going to /dev/null, as to a log shipper that keeps up. It
 * listens on a port of its own choosing (PORT=0), found in /proc: a port picked here and bound
 * later can be taken meanwhile by another process (tests run in parallel).
 */
export async function startAssay(env: Record<string, string>, profileDir?: string): Promise<Child> {
  const devNull = openSync('/dev/null', 'w');
  // With a profile, node runs bin/assay with its own flags (the shebang's) and --cpu-prof.
  const bin = join(ROOT, 'bin', 'assay');
  const shebang = /^#!.* node (.*)$/m.exec(readFileSync(bin, 'utf8'))![1]!.split(' ');
  const [command, args] = profileDir ? [process.execPath, [...shebang, '--cpu-prof', `--cpu-prof-dir=${profileDir}`, bin, 'serve']] : [bin, ['serve']];
  const child = spawn(command, args, {
    env: { ...inherited(), HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '0', MALLOC_ARENA_MAX: '2', ...env, PORT: '0' },
    stdio: ['ignore', devNull, 'inherit'],
  });
  const port = await portOnceListening(child, Date.now() + 20_000);
  if (child.exitCode !== null) throw new Error(`assay serve exited with ${child.exitCode}`);
  if (port === undefined) {
    child.kill('SIGKILL');
    throw new Error('assay serve did not listen within 20 s');
  }
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, '/healthz');
  return wrap(child, url);
}

/**
 * A server of the benchmark's own (`dist/bench/<script>.js`) on a port of its own choosing, read
 * from the line it prints once listening: a port picked here and bound later can be taken
 * meanwhile by another process (tests run in parallel).
 */
async function startAnnounced(script: string): Promise<Child> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'bench', `${script}.js`), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not say its port within 10 s`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before listening`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, script === 'bare-server' ? '/' : '/bytes/1');
  return wrap(child, url);
}

/** The bare node:http server (`bare-server.ts`): the ceiling. */
export const startBare = () => startAnnounced('bare-server');

/** Fastify with Assay's request log and nothing else (`floor-server.ts`): the framework's floor. */
export const startFloor = () => startAnnounced('floor-server');

/** Provisioning goes through the operator CLI, as it would for a real deployment. */
export function runCliJson(args: string[], env: Record<string, string>): Record<string, string> {
  const out = execFileSync(join(ROOT, 'bin', 'assay'), args, { env: { ...inherited(), ...env }, encoding: 'utf8' });
  return JSON.parse(out) as Record<string, string>;
}
