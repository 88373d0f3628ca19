import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import type { TestServer } from '../helpers/server.js';
import { newAssessment } from '../helpers/fixtures.js';
import { eventually } from '../helpers/receiver.js';
import { apiClient, authHeaders, candidate, errorCode, request, type Credentials } from '../helpers/http.js';

/** An authenticated POST whose body never finishes: it stays in flight, holding `length` bytes. */
async function stalledPost(server: TestServer, creds: Credentials, length: number, from: string): Promise<Socket> {
  const { port } = new URL(server.url);
  const headers = { ...authHeaders(creds), 'content-type': 'application/json', 'content-length': String(length) };
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect({ port: Number(port), host: '127.0.0.1', localAddress: from }, () => resolve(s));
    s.once('error', reject);
  });
  socket.on('error', () => {});
  socket.resume();
  socket.write(
    `POST /api/anonymous/candidate HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n{"Ext`,
  );
  // The request is in flight once the server has read its headers; a health check after it is ordered behind it.
  await request(`${server.url}/healthz`);
  return socket;
}

suiteOnEachDatabase(
  'shedding load with 503 and Retry-After',
  { env: { OVERLOAD_MAX_IN_FLIGHT: '2', OVERLOAD_BODY_BYTES: '1000000', OVERLOAD_BODY_BYTES_PER_CLIENT: '65536' } },
  ({ server, creds }) => {
    test('past the requests in flight: the envelope on the API, a page on the portal, health still answers', async () => {
      const a = await newAssessment(server.url, creds);
      const stalled = [await stalledPost(server, creds, 1000, '127.0.31.1'), await stalledPost(server, creds, 1000, '127.0.31.2')];
      try {
        const api = await apiClient(server.url, creds, '127.0.31.3').get(`/api/anonymous/assessment/${a.id}`);
        assert.equal(api.status, 503);
        assert.equal(errorCode(api), 'ServiceUnavailable');
        assert.ok(Number(api.headers.get('retry-after')) >= 1);
        const page = await request(`${server.url}/anonymous/analyse/start/${a.id}`, { from: '127.0.31.3' });
        assert.equal(page.status, 503);
        assert.match(page.headers.get('content-type') ?? '', /text\/html/);
        assert.match(page.text, /Very busy right now/);
        assert.ok(Number(page.headers.get('retry-after')) >= 1);
        assert.equal((await request(`${server.url}/healthz`)).status, 200);
      } finally {
        for (const s of stalled) s.destroy();
      }
      // The slots come back when those connections go.
      await eventually(
        async () => ((await apiClient(server.url, creds).get(`/api/anonymous/assessment/${a.id}`)).status === 200 ? true : undefined),
        15_000,
        'a 200 once the stalled connections are gone',
      );
    });

    test('one client cannot hold more than its share of request bodies in memory', async () => {
      const held = await stalledPost(server, creds, 60_000, '127.0.32.1');
      try {
        const same = await apiClient(server.url, creds, '127.0.32.1').createCandidate({ ...candidate(), Pad: 'x'.repeat(10_000) });
        assert.equal(same.status, 503, same.text);
        assert.equal(errorCode(same), 'ServiceUnavailable');
        const other = await apiClient(server.url, creds, '127.0.32.2').createCandidate({ ...candidate(), Pad: 'x'.repeat(10_000) });
        assert.equal(other.status, 201, 'another client is served meanwhile');
      } finally {
        held.destroy();
      }
    });
  },
);

/** Keeps this process's event loop busy in slices of `sliceMs`, letting I/O through between them, until `work` settles. */
async function whileLoopSlow<T>(work: () => Promise<T>, { warmMs = 1_300, sliceMs = 200 } = {}): Promise<T> {
  const started = Date.now();
  let outcome: { value: T } | { error: unknown } | undefined;
  let running = false;
  while (!outcome) {
    for (const end = Date.now() + sliceMs; Date.now() < end;);
    await new Promise((r) => setImmediate(r));
    // Past one whole sampling second (under-pressure samples each 1 s), every delay it saw was a slice.
    if (!running && Date.now() - started >= warmMs) {
      running = true;
      work().then(
        (value) => (outcome = { value }),
        (error) => (outcome = { error }),
      );
    }
    if (Date.now() - started > 30_000) throw new Error('the request did not settle');
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

// The server runs in this process: a slow loop here is the server's slow loop.
suiteOnEachDatabase('shedding on event-loop delay', { env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '100' } }, ({ server, creds }) => {
  test('a loop delayed past the limit gets 503 with Retry-After; without the delay, 200', async () => {
    const a = await newAssessment(server.url, creds);
    const get = () => apiClient(server.url, creds).get(`/api/anonymous/assessment/${a.id}`);
    // A machine busy with other work delays even an idle loop: each wait is for a calm second to be sampled.
    const calm = () => eventually(async () => ((await get()).status === 200 ? true : undefined), 30_000, 'a calm second sampled, and a 200');
    await calm(); // positive control: an idle loop serves
    // The guard acts on its last sample: on a busy machine a sample may still be a calm one, so the slow loop is held again until one is shed.
    const shed = await eventually(
      async () => {
        const r = await whileLoopSlow(get);
        return r.status === 503 ? r : undefined;
      },
      30_000,
      'a request shed while the loop is slow',
    );
    assert.equal(shed.status, 503, shed.text);
    assert.equal(errorCode(shed), 'ServiceUnavailable');
    assert.equal(shed.headers.get('retry-after'), '2');
    // Once a calm second has been sampled, it serves again.
    await calm();
  });
});
