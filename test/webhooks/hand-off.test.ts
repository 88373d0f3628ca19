import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from '../helpers/deadline.js';
import { latestAttempt } from '../../src/webhooks/attempt-log-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import type { Credentials } from '../helpers/http.js';
import { eventually, Receiver } from '../helpers/receiver.js';
import { type TestServer } from '../helpers/server.js';
import { dispatcherLooked, dispatcherQuiet, within } from '../helpers/ticks.js';

// Few places, so that the test fills them quickly; the dispatcher gives one tenant at most half.
const PLACES = 16;
const TENANT_SHARE = PLACES / 2;

/**
 * Holds back the answer of the dispatcher's next read of which tenants wait, once it has run:
 * the window in which a wake or a completion comes while the dispatcher decides.
 */
function holdNextWalk(server: TestServer): { held: Promise<void>; letGo: () => void } {
  const kysely = server.running.deps.store.db;
  const execute = kysely.executeQuery.bind(kysely);
  let ran!: () => void;
  const held = new Promise<void>((r) => (ran = r));
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  kysely.executeQuery = ((query) => {
    const text = 'sql' in query ? query.sql : query.compile().sql;
    if (!text.includes('with recursive t(tenant_id')) return execute(query);
    kysely.executeQuery = execute;
    return execute(query).then(async (result) => {
      ran();
      await gate;
      return result;
    });
  }) as typeof kysely.executeQuery;
  return {
    held,
    letGo: () => {
      kysely.executeQuery = execute;
      open();
    },
  };
}

/** Waits until `server`'s stop has reached its dispatcher, or fails after `ms`. */
async function stopReached(server: TestServer, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!server.running.deps.webhooks.activity.stopping) {
    if (Date.now() > deadline) throw new Error(`the stop did not reach the dispatcher within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// No poll within the tests, and no timeout while the receiver holds its answers.
suiteOnEachDatabase(
  'a completion hands its webhook attempt to the dispatcher',
  {
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000', WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_MAX_IN_FLIGHT: String(PLACES) },
    receiver: true,
  },
  ({ server, creds, receiver }) => {
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
      await dispatcherQuiet(server.running.deps.webhooks);
      const got = receiver.received.filter((r) => r.url === '/claimed').map((r) => JSON.parse(r.body).Analysis_Id as string);
      assert.deepEqual(got.sort(), [...ids].sort());
    });

    /** Completes `n` of the tenant's assessments whose receivers hold their answers; resolves when all are held. */
    async function fill(tenant: Credentials, path: string, n: number): Promise<string[]> {
      const ids: string[] = [];
      let started = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (started < n) {
            started += 1;
            ids.push(await completeAs(tenant, path));
          }
        }),
      );
      await receiver.waitForPath(path, n, 60_000);
      return ids;
    }
    const completeAs = async (tenant: Credentials, path: string) => {
      const a = await newAssessment(server.url, tenant, { WebhookUrl: receiver.url(path) });
      await completeViaForms(new FormClient(server.url), a.id);
      return a.id;
    };
    const sentTo = (path: string) => receiver.received.filter((r) => r.url === path).length;
    const delivered = (id: string) => eventually(async () => ((await attempt(id)).status === 'delivered' ? true : undefined), 15_000, `delivery of ${id}`);

    test(`a tenant holds at most ${TENANT_SHARE} places while another's webhooks go out; with all ${PLACES} (WEBHOOK_MAX_IN_FLIGHT) taken the next completion waits for a place, and a freed place goes first to a tenant holding none`, async () => {
      const holding = new Map<string, ServerResponse[]>();
      receiver.behaviour = (res, req) => {
        if (req.url?.startsWith('/hold-')) (holding.get(req.url) ?? holding.set(req.url, []).get(req.url)!).push(res);
        else res.writeHead(204).end();
      };
      const release = (path: string, n = Infinity) => {
        const held = holding.get(path) ?? [];
        for (const res of held.splice(0, n)) res.writeHead(204).end();
      };
      try {
        // One tenant whose receivers never answer takes its share of places, and no more.
        const first = await server.tenant();
        const firstHeld = await fill(first, '/hold-first', TENANT_SHARE);
        const firstWaits = await completeAs(first, '/first-next');
        assert.equal((await attempt(firstWaits)).status, 'pending', 'over its share: queued, not handed over');

        // Another tenant's webhook is handed over and sent at once.
        const second = await server.tenant();
        const secondNow = await completeAs(second, '/second-now');
        await receiver.waitForPath('/second-now', 1);
        await delivered(secondNow);

        // The second tenant fills the other half; a third tenant then waits for a place.
        const secondHeld = await fill(second, '/hold-second', PLACES - TENANT_SHARE);
        const third = await server.tenant();
        const thirdWaits = await completeAs(third, '/hold-third');
        assert.equal((await attempt(thirdWaits)).status, 'pending');
        await dispatcherLooked(server.running.deps.webhooks);
        assert.equal(server.running.deps.webhooks.activity.inFlight, PLACES, 'no attempt started past the places');
        assert.equal(sentTo('/hold-third') + sentTo('/first-next'), 0, 'nothing sent while every place is taken');

        // A place the second tenant gives back goes to the third (whose receiver holds it too): the first still holds its share.
        release('/hold-second', 1);
        await receiver.waitForPath('/hold-third', 1);
        await dispatcherLooked(server.running.deps.webhooks);
        assert.equal(server.running.deps.webhooks.activity.inFlight, PLACES, 'no attempt started past the places');
        assert.equal(sentTo('/first-next'), 0, 'the first tenant still holds its share');

        // A place the first tenant gives back goes to a tenant holding none before the first's older
        // waiting attempt, and before a completion of the first tenant's that comes while the
        // dispatcher reads who waits: that one is not handed the place, but queued.
        const fourth = await server.tenant();
        const fourthWaits = await completeAs(fourth, '/fourth');
        assert.equal((await attempt(fourthWaits)).status, 'pending');
        const walk = holdNextWalk(server);
        let firstRace: string;
        try {
          release('/hold-first', 1);
          await within(walk.held, 15_000, 'the read of waiting tenants');
          firstRace = await completeAs(first, '/first-race');
          assert.equal((await attempt(firstRace)).status, 'pending', 'not handed the place the fourth tenant waits for');
        } finally {
          walk.letGo();
        }
        await receiver.waitForPath('/first-next', 1);
        await receiver.waitForPath('/first-race', 1);
        const order = receiver.received.map((r) => r.url).filter((u) => ['/fourth', '/first-next', '/first-race'].includes(u));
        assert.deepEqual(order, ['/fourth', '/first-next', '/first-race'], 'the fourth tenant, holding no place, went first');
        for (const path of holding.keys()) release(path);
        const all = [...firstHeld, firstWaits, secondNow, ...secondHeld, thirdWaits, fourthWaits, firstRace];
        for (const id of all) await delivered(id);
        const sent = receiver.received
          .filter((r) => /^\/(hold-|first-next|first-race|second-now|fourth)/.test(r.url))
          .map((r) => JSON.parse(r.body).Analysis_Id as string);
        assert.deepEqual(sent.sort(), [...all].sort(), 'each completion posted exactly once');
      } finally {
        for (const path of holding.keys()) release(path);
      }
    });
  },
);

/** Completes an assessment whose webhook goes to `path` and waits until that attempt is recorded delivered. */
async function completedAndDelivered(server: TestServer, receiver: Receiver, path: string) {
  const a = await newAssessment(server.url, await server.tenant(), { WebhookUrl: receiver.url(path) });
  await completeViaForms(new FormClient(server.url), a.id);
  await receiver.waitForPath(path, 1);
  await eventually(async () => ((await latestAttempt(server.running.deps.store, a.id))!.latest.status === 'delivered' ? true : undefined));
  return a;
}

// The dispatcher's loop is the same on either database; SQLite reads synchronously, so a held read is exactly one snapshot.
// The poll would claim waiting attempts within a minute anyway; the tests need the wakes alone.
const LOOP_ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000' };
suiteOnEachDatabase(
  "the dispatcher's loop",
  { on: 'sqlite', env: { ...LOOP_ENV, METRICS_PORT: '0' }, tenant: false, receiver: true },
  ({ server, receiver, another }) => {
    const env = LOOP_ENV;

    test("an attempt that ends in an unexpected error is logged, and the server goes on sending other completions' webhooks", async () => {
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
      // An unhandled rejection is reported before the next macrotask: give it that turn.
      await new Promise((r) => setImmediate(r));
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

    test('a wake that comes while the dispatcher reads which tenants wait is not lost: an attempt queued during that read is sent at once, not at the next poll', async () => {
      const a = await completedAndDelivered(server, receiver, '/wake');

      // The next read of waiting tenants runs (nothing waits), then its answer is held back.
      const walk = holdNextWalk(server);
      try {
        server.running.deps.webhooks.wake();
        await within(walk.held, 15_000, 'the read of waiting tenants');
        // A redelivery commits a pending attempt and wakes the dispatcher, which is still in that read.
        const res = await a.api.post(`/api/anonymous/assessment/${a.id}/webhook/redeliver`, {});
        assert.equal(res.status, 202, JSON.stringify(res.body));
      } finally {
        walk.letGo();
      }
      await receiver.waitForPath('/wake', 2, 5_000);
    });

    test('a stop that comes while the dispatcher reads which tenants wait waits for that read to end, and claims nothing it found; after a restart the attempt waiting is sent once and recorded', async () => {
      // A server of its own: this one is stopped and started again.
      const first = await another(env);
      const a = await completedAndDelivered(first, receiver, '/stop');

      const walk = holdNextWalk(first);
      const order: string[] = [];
      const store = first.running.deps.store;
      const close = store.close.bind(store);
      store.close = () => (order.push('store closed'), close());
      let stopped = false;
      let stopping: Promise<void> | undefined;
      try {
        // The redelivery's own wake reads the tenants, its attempt among them; the answer is held.
        const res = await a.api.post(`/api/anonymous/assessment/${a.id}/webhook/redeliver`, {});
        assert.equal(res.status, 202, JSON.stringify(res.body));
        await within(walk.held, 15_000, 'the read of waiting tenants');
        stopping = first.stop(true).then(() => {
          stopped = true;
        });
        // The stop has closed the listeners and reached the dispatcher, which is in the held read.
        await stopReached(first, 15_000);
        assert.equal(stopped, false, 'the stop waits for the read under way');
        assert.equal(order.length, 0, 'the store is still open while the read is held');
        order.push('read let go');
      } finally {
        walk.letGo();
      }
      await within(stopping!, 30_000, 'the stop, once the read ended');
      assert.deepEqual(order, ['read let go', 'store closed'], 'the store closed only after the read ended');
      assert.equal(receiver.received.filter((r) => r.url === '/stop').length, 1, 'nothing claimed or sent after the stop began');

      const again = await another(env, { reuse: first });
      await receiver.waitForPath('/stop', 2);
      const log = await eventually(async () => {
        const l = await latestAttempt(again.running.deps.store, a.id);
        return l?.latest.status === 'delivered' ? l : undefined;
      });
      assert.equal(log.count, 2, 'the automatic attempt and the redelivery, each once');
    });
  },
);
