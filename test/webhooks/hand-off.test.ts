import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { latestAttempt } from '../../src/store/outbox.js';
import { MAX_IN_FLIGHT } from '../../src/webhooks/dispatcher.js';
import { testDatabases } from '../helpers/databases.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import type { Credentials } from '../helpers/http.js';
import { eventually, Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';

for (const db of testDatabases()) {
  describe(`a completion hands its webhook attempt to the dispatcher [${db}]`, () => {
    let server: TestServer;
    let receiver: Receiver;
    let creds: Credentials;
    const held: ServerResponse[] = [];
    before(async () => {
      // No poll within the tests, and no timeout while the receiver holds its answers.
      server = await startServer(db, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000', WEBHOOK_TIMEOUT_MS: '60000' });
      receiver = await Receiver.start();
      creds = await server.tenant();
    });
    after(async () => {
      for (const res of held.splice(0)) res.writeHead(204).end();
      await server.stop();
      await receiver.close();
    });

    const complete = async (path: string) => {
      const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url(path) });
      await completeViaForms(new FormClient(server.url), a.id);
      return a.id;
    };
    const attempt = async (id: string) => (await latestAttempt(server.running.deps.store, id))!.latest;

    test('the attempt is queued already claimed, in the completion transaction, and sent once', async () => {
      const ids = [await complete('/claimed'), await complete('/claimed'), await complete('/claimed')];
      await receiver.waitForPath('/claimed', 3);
      for (const id of ids) {
        const row = await eventually(async () => {
          const r = await attempt(id);
          return r.status === 'delivered' ? r : undefined;
        });
        // A claim of its own would have come in a later transaction, with a later clock.
        assert.equal(row.claimed_at, row.created_at, 'claimed when it was queued');
        assert.ok(row.claimed_by);
      }
      await new Promise((r) => setTimeout(r, 200));
      const got = receiver.received.filter((r) => r.url === '/claimed').map((r) => JSON.parse(r.body).Analysis_Id as string);
      assert.deepEqual(got.sort(), [...ids].sort());
    });

    test(`with ${MAX_IN_FLIGHT} attempts in flight, the next completion waits as pending and goes out when one ends`, async () => {
      receiver.behaviour = (res, req) => (req.url === '/hold' ? held.push(res) : res.writeHead(204).end());
      const busy: string[] = [];
      const workers = Array.from({ length: 8 }, async () => {
        while (busy.length < MAX_IN_FLIGHT) {
          const i = busy.push('') - 1;
          busy[i] = await complete('/hold');
        }
      });
      await Promise.all(workers);
      await receiver.waitForPath('/hold', MAX_IN_FLIGHT, 60_000);

      const next = await complete('/next');
      const waiting = await attempt(next);
      assert.equal(waiting.status, 'pending');
      assert.equal(waiting.claimed_by, null);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.received.filter((r) => r.url === '/next').length, 0, 'not sent while the dispatcher is full');

      held.shift()!.writeHead(204).end();
      await receiver.waitForPath('/next', 1);
      for (const res of held.splice(0)) res.writeHead(204).end();
      for (const id of [...busy, next]) await eventually(async () => ((await attempt(id)).status === 'delivered' ? true : undefined), 15_000, `delivery of ${id}`);
      const sent = receiver.received.filter((r) => r.url === '/hold' || r.url === '/next').map((r) => JSON.parse(r.body).Analysis_Id as string);
      assert.deepEqual(sent.sort(), [...busy, next].sort(), 'each completion posted exactly once');
    });
  });
}

// The dispatcher's bookkeeping is the same on either database; one is enough.
describe('an attempt that ends in an unexpected error', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startServer('sqlite', { METRICS_PORT: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000' });
    receiver = await Receiver.start();
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  test('is logged, and the server goes on sending other completions\' webhooks', async () => {
    const metrics = server.running.deps.metrics!;
    const original = metrics.webhookAttempt.bind(metrics);
    let thrown = 0;
    metrics.webhookAttempt = () => {
      thrown += 1;
      throw new Error('a metric that throws');
    };
    const creds = await server.tenant();
    const first = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/throws') });
    await completeViaForms(new FormClient(server.url), first.id);
    await receiver.waitForPath('/throws', 1);
    await eventually(async () => (thrown === 1 ? true : undefined), 5_000, 'the throwing metric to be called');
    // An unhandled rejection would have ended the test process by now; give it a turn to.
    await new Promise((r) => setTimeout(r, 100));
    metrics.webhookAttempt = original;

    const next = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/after') });
    await completeViaForms(new FormClient(server.url), next.id);
    await receiver.waitForPath('/after', 1);
    const row = await eventually(async () => {
      const r = (await latestAttempt(server.running.deps.store, first.id))!.latest;
      return r.status === 'delivered' ? r : undefined;
    });
    assert.equal(row.status, 'delivered', 'the attempt was recorded before the metric threw');
  });
});
