import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase, type SuiteContext } from '../helpers/harness.js';
import { freePort } from '../helpers/cli.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { candidate, request } from '../helpers/http.js';
import { eventually, type Behaviour } from '../helpers/receiver.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

/**
 * The suite's checks: an attempt at a receiver that behaves as told, once it is recorded Delivered
 * or Failed and the dispatcher is quiet; and whether the API still serves then.
 */
function attempts({ server, creds, receiver }: SuiteContext) {
  async function attempt(path: string, behaviour: Behaviour, url = receiver.url(path)) {
    receiver.behaviour = behaviour;
    const before = receiver.received.filter((r) => r.url === path).length;
    const a = await newAssessment(server.url, creds, { WebhookUrl: url });
    await completeViaForms(new FormClient(server.url), a.id);
    const webhook = await eventually(async () => {
      const w = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Webhook;
      return w.Status === 'Delivered' || w.Status === 'Failed' ? w : undefined;
    });
    // Once nothing is in flight and the dispatcher has looked at the outbox twice since, as its
    // poll would, there is still only the one attempt.
    await dispatcherQuiet(server.running.deps.webhooks);
    const hits = receiver.received.filter((r) => r.url === path).length - before;
    const still = await apiStillServes();
    return { webhook, hits, still };
  }

  async function apiStillServes(): Promise<boolean> {
    const res = await request(`${server.url}/readyz`);
    const c = await newAssessment(server.url, creds).catch(() => undefined);
    return res.status === 200 && c !== undefined;
  }
  return { attempt };
}

// The timeout is not these tests' subject: it is long, so that a busy machine's stall is not taken
// for a receiver's (a stalled loop runs an expired timeout before the socket's answer).
suiteOnEachDatabase(
  'a bad webhook receiver costs one recorded attempt',
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_POLL_INTERVAL_MS: '100' }, receiver: true },
  (ctx) => {
    const { receiver } = ctx;
    const { attempt } = attempts(ctx);

    test('an error response (500)', async () => {
      const r = await attempt('/500', (res) => res.writeHead(500).end('boom'));
      assert.equal(r.webhook.Status, 'Failed');
      assert.equal(r.webhook.ResponseStatus, 500);
      assert.equal(r.webhook.Error, 'HTTP 500');
      assert.equal(r.hits, 1);
      assert.ok(r.still);
    });

    test('a receiver that is down', async () => {
      const port = await freePort();
      const r = await attempt('/down', () => {}, `http://127.0.0.1:${port}/down`);
      assert.equal(r.webhook.Status, 'Failed');
      assert.equal(r.webhook.ResponseStatus, null);
      assert.equal(r.webhook.Error, 'connection refused');
      assert.ok(r.still);
    });

    test('a redirect is not followed', async () => {
      const r = await attempt('/redirect', (res) => res.writeHead(302, { location: receiver.url('/redirect-target') }).end());
      assert.equal(r.webhook.Status, 'Failed');
      assert.equal(r.webhook.ResponseStatus, 302);
      assert.equal(r.hits, 1);
      assert.equal(receiver.received.filter((x) => x.url === '/redirect-target').length, 0);
    });

    test('a huge response body is not read past the cap', async () => {
      const TOTAL = 200 * 1024 * 1024;
      let sent = 0;
      let closed!: () => void;
      const done = new Promise<void>((resolve) => (closed = resolve));
      let finished = false;
      const r = await attempt('/huge', (res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        // The receiver writes only as fast as the client reads: what it got rid of is what was read,
        // plus what the kernel's socket buffers hold (a few MB on loopback).
        const pump = () => {
          while (sent < TOTAL) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => {});
        res.on('finish', () => (finished = true));
        res.on('close', () => closed());
        pump();
      });
      assert.equal(r.webhook.Status, 'Delivered');
      assert.equal(r.webhook.ResponseStatus, 200);
      assert.ok(r.still);
      await done;
      assert.equal(finished, false, 'the client hung up before the body ended');
      assert.ok(sent < 48 * 1024 * 1024, `${sent} bytes left the receiver of ${TOTAL}: the client kept reading`);
    });
  },
);

// The timeout is the subject: short, against receivers that answer only after it (in this process,
// so on the same loop: the earlier timer always runs first) or never.
suiteOnEachDatabase(
  'a receiver slower than the webhook timeout costs one recorded attempt',
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_POLL_INTERVAL_MS: '100' }, receiver: true },
  (ctx) => {
    const { server, creds, receiver } = ctx;
    const { attempt } = attempts(ctx);

    test('a slow receiver is cut off at the timeout', async () => {
      const r = await attempt('/slow', (res) => setTimeout(() => res.writeHead(200).end(), 1_500));
      assert.equal(r.webhook.Status, 'Failed');
      assert.equal(r.webhook.Error, 'timed out after 500 ms');
      assert.equal(r.hits, 1);
      assert.ok(r.still);
    });

    test('a hanging receiver is cut off at the timeout', async () => {
      const r = await attempt('/hang', () => {});
      assert.equal(r.webhook.Status, 'Failed');
      assert.match(r.webhook.Error, /timed out/);
      assert.equal(r.hits, 1);
      assert.ok(r.still);
    });

    test('the API answers while receivers hang', async () => {
      receiver.behaviour = () => {};
      const pending = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/hang-many') });
          await completeViaForms(new FormClient(server.url), a.id);
          return a;
        }),
      );
      const res = await request(`${server.url}/api/anonymous/candidate`, {
        body: candidate(),
        headers: { authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`, 'api-key': creds.apiKey },
      });
      assert.equal(res.status, 201);
      for (const a of pending) {
        await eventually(async () => ((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Webhook.Status === 'Failed' ? true : undefined));
      }
    });
  },
);
