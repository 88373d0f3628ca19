import { createServer, Server as NetServer, type AddressInfo, type ListenOptions } from 'node:net';
import type { FastifyListenOptions } from 'fastify';
import type { App } from './app-types.js';

/** Sockets listening on the server's port, where Node.js can share one (`reusePort`). */
export const LISTENERS = 64;

/** `reusePort` arrived in Node.js 22.12 and 23.1; older versions ignore it. */
export function canSharePort(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/**
 * Listens on `host:port`, with `LISTENERS` sockets where Node.js can share the port. libuv
 * accepts one connection per listening socket per event-loop turn (libuv/libuv#3696), and under
 * load a turn takes tens of milliseconds: with one socket, a 500-candidate campaign admitted new
 * connections at about 40 a second, so 300 candidates waited 1 to 7 s for their first page while
 * those already connected were served in 50 ms. The kernel spreads new connections over the
 * sockets, each turn accepts one from each, and each hands its connections to the HTTP server.
 * Returns the extra sockets, for `close` to stop with the server's own.
 */
export async function listen(app: App, host: string, port: number, backlog: number): Promise<NetServer[]> {
  if (!canSharePort()) {
    await app.listen({ port, host, backlog });
    return [];
  }
  // A port in use stays an error, as without sharing: a second server started on it by mistake
  // must not quietly take half its connections.
  if (port !== 0) await listenOn(new NetServer(), { port, host }).then((probe) => close([probe]));
  await app.listen({ port, host, backlog, reusePort: true } as FastifyListenOptions);
  const bound = app.server.address() as AddressInfo;
  const extras: NetServer[] = [];
  try {
    for (let i = 1; i < LISTENERS; i++) {
      const extra = createServer((socket) => app.server.emit('connection', socket));
      extra.on('error', (err) => app.log.error({ err }, 'an extra listening socket failed'));
      extras.push(await listenOn(extra, { port: bound.port, host: bound.address, backlog, reusePort: true } as ListenOptions));
    }
  } catch (err) {
    await close(extras);
    throw err;
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
