import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from '../helpers/deadline.js';
import { apiClient, candidate, errorCode, request, type Credentials } from '../helpers/http.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { within } from '../helpers/ticks.js';

function openSlowRequest(port: number, partial: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // From another loopback address: these unauthenticated requests must not lock out the real client.
    const s = connect({ port, host: '127.0.0.1', localAddress: '127.0.9.9' }, () => {
      s.write(partial);
      resolve(s);
    });
    s.on('error', () => {});
    s.once('error', reject);
    // Read (and drop) what the server answers, or 'close' never comes.
    s.resume();
  });
}

const closed = (s: Socket) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

suiteOnEachDatabase(
  'resource limits',
  { on: 'first', env: { HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '3000', MAX_HEADER_BYTES: '8192' } },
  ({ server, creds }) => {
    test('slowloris: many never-finishing requests do not stop others being served, and are cut off', async () => {
      const port = Number(new URL(server.url).port);
      const slowHeaders = await Promise.all(
        Array.from({ length: 100 }, () => openSlowRequest(port, 'POST /api/anonymous/candidate HTTP/1.1\r\nHost: x\r\nX-Slow: ')),
      );
      const slowBodies = await Promise.all(
        Array.from({ length: 50 }, () =>
          openSlowRequest(port, 'POST /api/anonymous/candidate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"Ext'),
        ),
      );
      // Half of them trickle a byte now and then, as a slowloris client does; half go quiet.
      const trickle = setInterval(() => {
        for (const s of slowHeaders.slice(0, 50)) if (!s.destroyed) s.write('a');
      }, 200);
      try {
        const api = apiClient(server.url, creds);
        for (let i = 0; i < 5; i++) assert.equal((await api.createCandidate(candidate())).status, 201);
        assert.equal((await request(`${server.url}/healthz`)).status, 200);
        // The server, not the client, ends them: headers within HEADERS_TIMEOUT_MS, bodies within REQUEST_TIMEOUT_MS.
        await within(Promise.all([...slowHeaders, ...slowBodies].map(closed)), 30_000, 'the server to end the slow connections');
      } finally {
        clearInterval(trickle);
        for (const s of [...slowHeaders, ...slowBodies]) s.destroy();
      }
    });

    test('oversized headers get 431 in the envelope', async () => {
      const res = await request(`${server.url}/api/anonymous/candidate`, { headers: { 'x-big': 'x'.repeat(10_000) } });
      assert.equal(res.status, 431);
      assert.equal(errorCode(res), 'PayloadTooLarge');
    });

    test('a body larger than the limit is refused before it is read whole', async () => {
      const res = await request(`${server.url}/api/anonymous/candidate`, {
        method: 'POST',
        body: JSON.stringify({ ...candidate(), pad: 'x'.repeat(5 * 1024 * 1024) }),
        headers: { ...apiHeaders(creds), 'content-type': 'application/json' },
      });
      assert.equal(res.status, 413);
      assert.equal(errorCode(res), 'PayloadTooLarge');
    });

    test('a garbled request line gets 400 in the envelope', async () => {
      const port = Number(new URL(server.url).port);
      const reply = await new Promise<string>((resolve) => {
        const s = connect(port, '127.0.0.1', () => s.write('NOT HTTP AT ALL\r\n\r\n'));
        let data = '';
        s.on('data', (d) => (data += d));
        s.on('close', () => resolve(data));
        s.on('error', () => resolve(data));
      });
      assert.match(reply, /^HTTP\/1\.1 400/);
      assert.match(reply, /"code":"ValidationError"/);
    });
  },
);

function apiHeaders(c: Credentials): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`, 'api-key': c.apiKey };
}
