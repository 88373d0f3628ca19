import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { latestAttempt } from '../../src/store/outbox.js';
import { MAX_IN_FLIGHT, TENANT_SHARE } from '../../src/webhooks/dispatcher.js';
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

    const complete = async (path: string, tenant = creds) => {
      const a = await newAssessment(server.url, tenant, { WebhookUrl: receiver.url(path) });
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

    /** Completes `count` assessments of `tenant` posting to `path`, eight at a time; their ids. */
    async function completeMany(count: number, path: string, tenant: Credentials): Promise<string[]> {
      const ids: string[] = [];
      const workers = Array.from({ length: 8 }, async () => {
        while (ids.length < count) {
          const i = ids.push('') - 1;
          ids[i] = await complete(path, tenant);
        }
      });
      await Promise.all(workers);
      return ids;
    }

    test(`with ${MAX_IN_FLIGHT} attempts in flight, the next completion waits as pending and goes out when one ends`, async () => {
      receiver.behaviour = (res, req) => (req.url === '/hold' ? held.push(res) : res.writeHead(204).end());
      // A tenant has at most TENANT_SHARE in flight here: enough tenants to fill the dispatcher.
      const busy: string[] = [];
      for (let t = 0; t < MAX_IN_FLIGHT / TENANT_SHARE; t++) busy.push(...(await completeMany(TENANT_SHARE, '/hold', await server.tenant())));
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

    test(`a tenant whose receiver answers nothing holds ${TENANT_SHARE} places, not the dispatcher: another tenant's webhook goes out at once`, async () => {
      receiver.behaviour = (res, req) => (req.url === '/tarpit' ? held.push(res) : res.writeHead(204).end());
      const slow = await completeMany(MAX_IN_FLIGHT + TENANT_SHARE, '/tarpit', await server.tenant());
      await receiver.waitForPath('/tarpit', TENANT_SHARE);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.received.filter((r) => r.url === '/tarpit').length, TENANT_SHARE, "only the tenant's share is sent");
      const states = await Promise.all(slow.map(async (id) => (await attempt(id)).status));
      assert.equal(states.filter((s) => s === 'pending').length, slow.length - TENANT_SHARE, 'the rest wait as pending');

      const other = await complete('/other', await server.tenant());
      await receiver.waitForPath('/other', 1, 10_000);
      assert.equal((await eventually(async () => ((await attempt(other)).status === 'delivered' ? 'delivered' : undefined))), 'delivered');

      receiver.behaviour = (res) => res.writeHead(204).end();
      for (const res of held.splice(0)) res.writeHead(204).end();
      for (const id of slow) await eventually(async () => ((await attempt(id)).status === 'delivered' ? true : undefined), 30_000, `delivery of ${id}`);
      const sent = receiver.received.filter((r) => r.url === '/tarpit').map((r) => JSON.parse(r.body).Analysis_Id as string);
      assert.deepEqual(sent.sort(), [...slow].sort(), 'each completion posted exactly once');
    });
  });
}
