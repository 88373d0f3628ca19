import { fork, type ChildProcess } from 'node:child_process';
import { createServer, Server as NetServer, type AddressInfo, type ListenOptions } from 'node:net';
import type { FastifyListenOptions } from 'fastify';
import type { App } from './app.js';

/**
 * Listening descriptors on the server's port: sockets sharing it (`reusePort`) where Node.js can,
 * else copies of the one socket's descriptor.
 */
export const LISTENERS = 64;

/** `reusePort` arrived in Node.js 22.12 and 23.1; older versions ignore it. */
export function canSharePort(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/**
 * Listens on `host:port` with `LISTENERS` descriptors that accept. libuv accepts one connection per
 * listening descriptor per event-loop turn (libuv/libuv#3696), and under load a turn takes tens of
 * milliseconds: with one, new connections wait seconds to be accepted while those already
 * connected are served. Where Node.js can share a port, the kernel spreads new connections over 64 sockets;
 * before that (Node.js 20), 63 more descriptors of the one socket each take one from its queue per
 * turn. Either way each hands its connections to the HTTP server. Returns the extra listeners, for
 * `close` to stop with the server's own.
 */
export async function listen(app: App, host: string, port: number, backlog: number): Promise<NetServer[]> {
  if (!canSharePort()) {
    await app.listen({ port, host, backlog });
    return copyDescriptor(app, backlog);
  }
  // A port in use stays an error, as without sharing: a second server started on it by mistake
  // must not quietly take half its connections.
  if (port !== 0) await listenOn(new NetServer(), { port, host }).then((probe) => close([probe]));
  await app.listen({ port, host, backlog, reusePort: true } as FastifyListenOptions);
  const bound = app.server.address() as AddressInfo;
  const extras: NetServer[] = [];
  try {
    for (let i = 1; i < LISTENERS; i++) {
      extras.push(await listenOn(extraListener(app), { port: bound.port, host: bound.address, backlog, reusePort: true } as ListenOptions));
    }
  } catch (err) {
    await close(extras);
    throw err;
  }
  return extras;
}

function extraListener(app: App): NetServer {
  const extra = createServer((socket) => app.server.emit('connection', socket));
  extra.on('error', (err) => app.log.error({ err }, 'an extra listening socket failed'));
  return extra;
}

/**
 * Node.js before 22.12 has no `reusePort`, and no call that duplicates a descriptor. A child
 * process does it: handles sent over IPC arrive as new descriptors (`listener-copies.ts`). If that
 * fails, the server still serves, on one descriptor, and says so.
 */
export async function copyDescriptor(
  app: App,
  backlog: number,
  { copies = LISTENERS - 1, deadlineMs = 10_000, script = new URL('./listener-copies.js', import.meta.url) } = {},
): Promise<NetServer[]> {
  const handle = (app.server as unknown as { _handle: unknown })._handle;
  const extras: NetServer[] = [];
  let taking = true;
  let child: ChildProcess | undefined;
  try {
    // No environment: NODE_OPTIONS could load code that keeps the child, and a descriptor, alive.
    const copier = (child = fork(script, [], { execArgv: [], env: {}, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'json' }));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${extras.length} of ${copies} copies within ${deadlineMs} ms`)), deadlineMs);
      const done = (err?: Error): void => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      copier.on('error', done);
      copier.on('close', (code) => done(new Error(`the copying process ended (${code}) after ${extras.length} of ${copies} copies`)));
      copier.on('message', (message: { copy?: unknown } | null, copy: { close?: () => void } | undefined) => {
        if (!copy) return;
        // A copy that comes too late, or more than asked for, is closed: nothing would ever close it.
        if (!taking || message?.copy !== true || extras.length === copies) return void copy.close?.();
        // The backlog is the socket's own: listen() on a copy with Node's default 511 would lower it.
        extras.push(extraListener(app).listen(copy as never, backlog));
        if (extras.length === copies) done();
      });
      copier.send({ copies }, handle as never);
    });
  } catch (err) {
    taking = false;
    if (child?.connected) child.disconnect();
    // It holds a descriptor of the socket too, and would keep it listening as long as it lived.
    child?.kill('SIGKILL');
    await close(extras);
    app.log.warn({ err }, 'listening on one descriptor: under load, new connections wait to be accepted one per event-loop turn');
    return [];
  }
  return extras;
}

function listenOn(server: NetServer, options: ListenOptions): Promise<NetServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stops the sockets accepting; connections they accepted belong to the HTTP server. */
export async function close(servers: NetServer[]): Promise<void> {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
}

/** Connections still open that arrived through `servers`. */
export async function openConnections(servers: NetServer[]): Promise<number> {
  const counts = await Promise.all(servers.map((s) => new Promise<number>((resolve) => s.getConnections((err, n) => resolve(err ? 0 : n)))));
  return counts.reduce((a, b) => a + b, 0);
}
