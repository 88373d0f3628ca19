import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { test } from '../helpers/deadline.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { writeLoad } from '../helpers/load.js';
import { eventually } from '../helpers/receiver.js';
import { within } from '../helpers/ticks.js';

// Processes of their own: SIGTERM and the exit code are the subject.
suiteOnEachDatabase(
  'graceful shutdown on SIGTERM under load',
  { process: true, receiver: true, env: { SHUTDOWN_DRAIN_MS: '1500', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } },
  ({ serverProcess: server, receiver, creds, cliEnv, another }) => {
    test('unready, then a drain answering with Connection: close, no request cut off, webhook recorded, exit 0', async () => {
      // The receiver answers slowly: the webhook attempt is still in flight when SIGTERM arrives.
      receiver.behaviour = (res) => setTimeout(() => res.writeHead(200).end('ok'), 1_200);

      const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/slow') });
      const load = writeLoad(server.url, creds, 6, { leaveOnClose: true });
      while (load.result.acknowledgedCandidates.length < 30) await new Promise((r) => setTimeout(r, 10));
      await completeViaForms(new FormClient(server.url), a.id);
      await receiver.waitFor(1);

      server.child.kill('SIGTERM');
      // The event: the drain has begun, and answers requests on open connections with Connection: close.
      await eventually(async () => (load.result.connectionClose > 0 ? true : undefined), 5_000, 'a request answered with Connection: close in the drain');
      const ready = await request(`${server.url}/readyz`);
      assert.equal(ready.status, 503, 'unready during the drain');
      assert.equal(ready.body.error.code, 'ServiceUnavailable');
      assert.equal(ready.headers.get('connection'), 'close');
      const closedDuringDrain = load.result.connectionClose;

      const code = await within(server.exited, 30_000, 'the server to exit after its drain');
      const result = await load.stop();
      assert.equal(code, 0, server.output());
      assert.deepEqual(result.cutOff, [], 'no request was cut off mid-flight');
      assert.ok(closedDuringDrain > 0, 'requests on open connections were answered during the drain, asking clients to reconnect');
      assert.deepEqual([...result.statuses.keys()].sort(), [201]);

      const reopened = await another({}, { reuse: { dataDir: cliEnv.DATA_DIR!, databaseUrl: cliEnv.DATABASE_URL! } });
      const row = await reopened.running.deps.store.db.selectFrom('webhook_attempts').selectAll().where('analysis_id', '=', a.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'delivered', 'the in-flight attempt finished and was recorded');
      assert.equal(row.response_status, 200);
    });
  },
);

// PostgreSQL behind a proxy that stops passing bytes on: connections stay open and nothing answers.
suiteOnEachDatabase(
  'a stop that cannot finish',
  { on: 'postgres', process: true, start: false, env: { SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '2000' } },
  ({ spawn, creds, cliEnv }) => {
    test('with the database frozen mid-request, SIGTERM still ends the process at SHUTDOWN_TIMEOUT_MS, exit 1, saying why', async () => {
      const proxy = await freezableProxy(new URL(cliEnv.DATABASE_URL!));
      try {
        const server = await spawn({ DATABASE_URL: proxy.url });
        proxy.freeze();
        // Its credentials are not cached yet: the request waits on the frozen database.
        const pending = newAssessment(server.url, creds).then(
          () => 'answered',
          () => 'failed',
        );
        // The signal comes once the request's query has reached the frozen proxy.
        await eventually(async () => (proxy.held() > 0 ? true : undefined), 10_000, 'a query held by the frozen proxy');
        const signalled = Date.now();
        server.child.kill('SIGTERM');
        const code = await Promise.race([server.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
        const took = Date.now() - signalled;
        assert.equal(code, 1, server.output());
        assert.ok(took >= 1_900 && took < 6_000, `ended ${took} ms after the signal`);
        assert.match(server.output(), /shutdown did not finish within SHUTDOWN_TIMEOUT_MS/);
        assert.equal(await pending, 'failed', 'the request waiting on the database got no answer');
      } finally {
        await proxy.close();
      }
    });
  },
);

/** A TCP proxy to `target`'s server; `freeze` stops it passing anything on, in either direction. */
async function freezableProxy(target: URL): Promise<{ url: string; freeze(): void; held: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let frozen = false;
  let held = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk: Buffer) => {
        if (!frozen) to.write(chunk);
        else held++;
      });
      from.on('error', () => {});
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target.href);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.href,
    freeze: () => {
      frozen = true;
    },
    held: () => held,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
