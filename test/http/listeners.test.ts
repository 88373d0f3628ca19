import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Server as NetServer, type Socket } from 'node:net';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { Client } from 'undici';
import { canSharePort, close, copyDescriptor, LISTENERS } from '../../src/http/listeners.js';
import { tempDir, type TestServer } from '../helpers/server.js';

/** Inodes of the sockets in LISTEN state on `port`, from the kernel's own table. */
function listeningSockets(port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter(([, local, , state]) => local?.endsWith(`:${hex}`) && state === '0A')
    .map((fields) => fields[9]!);
}

/** This process's descriptors of those sockets: each one is polled, and accepts, on its own. */
function listeningDescriptors(port: number): number {
  const sockets = new Set(listeningSockets(port).map((inode) => `socket:[${inode}]`));
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return sockets.has(readlinkSync(join('/proc/self/fd', fd)));
    } catch {
      return false; // closed since the listing
    }
  }).length;
}

/** `copyDescriptor` on a running server, with the warnings it logs meanwhile. */
async function copyWithWarnings(
  server: TestServer,
  options: Parameters<typeof copyDescriptor>[2],
): Promise<{ extras: NetServer[]; warnings: Array<[{ err: Error }, string]> }> {
  const log = server.running.app.log;
  const warnings: Array<[{ err: Error }, string]> = [];
  const warn = log.warn;
  log.warn = ((...args: [{ err: Error }, string]) => void warnings.push(args)) as typeof warn;
  try {
    return { extras: await copyDescriptor(server.running.app, 2048, options), warnings };
  } finally {
    log.warn = warn;
  }
}

/** Whether a process runs (a killed child of this process is reaped by Node.js on its own). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Holds the event loop until `path` exists: whatever arrives meanwhile waits in the kernel. */
function holdUntil(path: string, deadlineMs: number): void {
  const deadline = Date.now() + deadlineMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${deadlineMs} ms`);
    Atomics.wait(pause, 0, 0, 1);
  }
}

function bind(port: number): Promise<NetServer> {
  return new Promise((resolve, reject) => {
    const s = new NetServer();
    s.once('error', reject);
    s.listen({ port, host: '127.0.0.1' }, () => resolve(s));
  });
}

suiteOnEachDatabase('listening sockets', { on: 'first', start: false }, ({ another }) => {
  test('the port is shared from Node.js 22.12 and 23.1 on', () => {
    assert.deepEqual(
      ['20.18.0', '20.20.2', '22.11.0', '22.12.0', '23.0.0', '23.1.0', '24.0.0', '25.2.1'].map((v) => canSharePort(v)),
      [false, false, false, true, false, true, true, true],
    );
  });

  test(
    `the server listens with ${LISTENERS} descriptors (sockets sharing the port where it can), every one of them serves, and all close at stop`,
    { timeout: 60_000 },
    async () => {
      const server = await another();
      const port = Number(new URL(server.url).port);
      try {
        assert.equal(listeningSockets(port).length, canSharePort() ? LISTENERS : 1);
        assert.equal(listeningDescriptors(port), LISTENERS);
        const healthz = async () => {
          const client = new Client(server.url, { connect: { timeout: 10_000 }, headersTimeout: 10_000, bodyTimeout: 10_000 });
          try {
            const res = await client.request({ method: 'GET', path: '/healthz' });
            await res.body.text();
            return res.statusCode;
          } finally {
            await client.close();
          }
        };
        // A connection's socket names the listener that accepted it; every listener hands its sockets to the HTTP server.
        const acceptedBy = new Set<unknown>();
        const record = (socket: Socket & { server?: unknown }): void => void acceptedBy.add(socket.server);
        server.running.app.server.prependListener('connection', record);
        // The kernel spreads new connections over the sockets at random: rounds of 200 until each has had one.
        const codes: number[] = [];
        try {
          for (let round = 0; round < 25 && acceptedBy.size < LISTENERS; round++) codes.push(...(await Promise.all(Array.from({ length: 200 }, healthz))));
        } finally {
          server.running.app.server.off('connection', record);
        }
        assert.deepEqual([...new Set(codes)], [200]);
        assert.equal(acceptedBy.size, LISTENERS, `${acceptedBy.size} of ${LISTENERS} listeners accepted a connection out of ${codes.length}`);
        await assert.rejects(another({ PORT: String(port) }), { code: 'EADDRINUSE' }, 'a second server on the port is refused, not given a share');
      } finally {
        await server.stop();
      }
      assert.equal(listeningSockets(port).length, 0);
      await close([await bind(port)]);
    },
  );

  test('200 connections that arrived while the event loop was held are all accepted within 20 turns of it', { timeout: 60_000 }, async () => {
    const server = await another();
    const dir = tempDir('assay-listeners-');
    const ready = join(dir, 'ready');
    const { port } = new URL(server.url);
    // Another process connects, so the handshakes complete in the kernel while this loop is held.
    const connector = spawn(
      process.execPath,
      [
        '-e',
        `const net = require('node:net'); let n = 0;
        for (let i = 0; i < 200; i++) net.connect(${port}, '127.0.0.1', () => { if (++n === 200) require('node:fs').writeFileSync(${JSON.stringify(ready)}, ''); }).on('error', () => process.exit(2));
        setTimeout(() => process.exit(3), 50_000);`,
      ],
      { stdio: 'ignore' },
    );
    try {
      let turn = 0;
      const turns: number[] = [];
      const onConnection = (): void => void turns.push(turn);
      server.running.app.server.on('connection', onConnection);
      holdUntil(ready, 20_000);
      const counted = await new Promise<boolean>((resolve) => {
        const next = (): void => {
          if (turns.length >= 200) return resolve(true);
          if (++turn > 1_000) return resolve(false);
          setImmediate(next);
        };
        setImmediate(next);
      });
      server.running.app.server.off('connection', onConnection);
      assert.ok(counted, `only ${turns.length} of 200 connections accepted in 1,000 turns`);
      assert.ok(Math.max(...turns) <= 20, `the last connection was accepted in turn ${Math.max(...turns)}`);
    } finally {
      connector.kill();
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  });

  test('copies of the descriptor that cannot be made leave the server serving on what it has, with a warning', { timeout: 60_000 }, async () => {
    const server = await another();
    const dir = tempDir('assay-listeners-');
    try {
      const { extras, warnings } = await copyWithWarnings(server, { script: new URL(`file://${join(dir, 'missing.js')}`) });
      assert.deepEqual(extras, []);
      assert.equal(warnings.length, 1);
      const [fields, message] = warnings[0]!;
      assert.match(fields.err.message, /the copying process ended \(1\) after 0 of 63 copies/);
      assert.match(message, /listening on one descriptor/);
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  });

  test('a copying process that stops short is given up at its deadline, and what it sent is closed with the server', { timeout: 60_000 }, async () => {
    const server = await another();
    const port = Number(new URL(server.url).port);
    const dir = tempDir('assay-listeners-');
    const script = join(dir, 'short.cjs');
    // Three copies at once, then, deaf to SIGTERM, three more after the deadline; gone within 9 s. The
    // deadline counts from the copier's fork: 5 s leaves a busy machine's slow start room for the first three.
    const pidFile = join(dir, 'pid');
    writeFileSync(
      script,
      `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
      process.on('SIGTERM', () => {});
      const send = (h) => { for (let i = 0; i < 3; i++) process.send({ copy: true }, h, {}, () => {}); };
      process.on('message', (m, h) => { send(h); setTimeout(() => send(h), 6500); });
      setTimeout(() => process.exit(0), 9000);`,
    );
    try {
      const { extras, warnings } = await copyWithWarnings(server, { script: new URL(`file://${script}`), deadlineMs: 5_000 });
      assert.deepEqual(extras, []);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]![0].err.message, /^3 of 63 copies within 5000 ms$/);
      // The event: the copier is gone (killed at the deadline, or at its own exit 9 s in), so no
      // late copy can arrive after this; left alive, it would have sent three at 6.5 s.
      const pid = Number(readFileSync(pidFile, 'utf8'));
      const gone = Date.now() + 10_000;
      while (alive(pid)) {
        assert.ok(Date.now() < gone, `the copying process ${pid} still runs 10 s after the deadline`);
        await sleep(20);
      }
      assert.equal(listeningDescriptors(port), LISTENERS, 'the server keeps the descriptors it started with, and no more');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
    assert.equal(listeningSockets(port).length, 0);
  });
});
