import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Server as NetServer } from 'node:net';
import { describe, test } from 'node:test';
import { Client } from 'undici';
import { canSharePort, close, LISTENERS } from '../src/listeners.js';
import { freePort } from './helpers/cli.js';
import { startServer } from './helpers/server.js';

/** Sockets in LISTEN state on `port`, from the kernel's own table. */
function listening(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const [, local, , state] = line.trim().split(/\s+/);
      return local?.endsWith(`:${hex}`) && state === '0A';
    }).length;
}

function bind(port: number): Promise<NetServer> {
  return new Promise((resolve, reject) => {
    const s = new NetServer();
    s.once('error', reject);
    s.listen({ port, host: '127.0.0.1' }, () => resolve(s));
  });
}

describe('listening sockets', () => {
  test('the port is shared from Node.js 22.12 and 23.1 on', () => {
    assert.deepEqual(
      ['20.18.0', '20.20.2', '22.11.0', '22.12.0', '23.0.0', '23.1.0', '24.0.0', '25.2.1'].map((v) => canSharePort(v)),
      [false, false, false, true, false, true, true, true],
    );
  });

  test(`the server listens with ${LISTENERS} sockets where it can, every one of them serves, and all close at stop`, { timeout: 60_000 }, async () => {
    const port = await freePort();
    const server = await startServer('sqlite', { PORT: String(port) });
    try {
      assert.equal(listening(port), canSharePort() ? LISTENERS : 1);
      // The kernel spreads new connections over the sockets: 200 of them reach every one.
      const codes = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const client = new Client(server.url, { connect: { timeout: 10_000 }, headersTimeout: 10_000, bodyTimeout: 10_000 });
          try {
            const res = await client.request({ method: 'GET', path: '/healthz' });
            await res.body.text();
            return res.statusCode;
          } finally {
            await client.close();
          }
        }),
      );
      assert.deepEqual([...new Set(codes)], [200]);
      await assert.rejects(startServer('sqlite', { PORT: String(port) }), { code: 'EADDRINUSE' }, 'a second server on the port is refused, not given a share');
    } finally {
      await server.stop();
    }
    assert.equal(listening(port), 0);
    await close([await bind(port)]);
  });
});
