import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { eventually } from '../helpers/receiver.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

// A one-minute poll: delivery in these tests can only come from the wake-up at completion.
suiteOnEachDatabase(
  'completion webhook',
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000' }, receiver: true },
  ({ server, creds, receiver }) => {
    test('one POST with the exact body and the Basic header, recorded as delivered', async () => {
      const before = receiver.received.length;
      const a = await newAssessment(server.url, creds, {
        WebhookUrl: receiver.url('/hooks/assay?tenant=1'),
        WebhookUsername: 'ats-user',
        WebhookPassword: 'p@ss:word 🔑',
      });
      await completeViaForms(new FormClient(server.url), a.id);
      const [hit] = (await receiver.waitFor(before + 1)).slice(before);
      assert.equal(hit!.method, 'POST');
      assert.equal(hit!.url, '/hooks/assay?tenant=1');
      assert.equal(hit!.headers['content-type'], 'application/json');
      assert.equal(hit!.headers.authorization, `Basic ${Buffer.from('ats-user:p@ss:word 🔑').toString('base64')}`);
      assert.equal(hit!.body, JSON.stringify({ Analysis_Id: a.id, External_Id: a.externalId }));

      const status = await eventually(async () => {
        const res = await a.api.get(`/api/anonymous/assessment/${a.id}`);
        return res.body.Data.Webhook.Status === 'Delivered' ? res.body.Data.Webhook : undefined;
      });
      assert.equal(status.ResponseStatus, 204);
      assert.equal(status.Error, null);
      assert.equal(typeof status.DurationMs, 'number');
      assert.ok(Date.parse(status.AttemptedAt) > 0);
    });

    test('an anonymous webhook carries no Authorization header', async () => {
      const before = receiver.received.length;
      const a = await newAssessment(server.url, creds, { AssessmentType: 1, WebhookUrl: receiver.url('/anon') });
      await completeViaForms(new FormClient(server.url), a.id);
      const [hit] = (await receiver.waitFor(before + 1)).slice(before);
      assert.equal(hit!.url, '/anon');
      assert.equal(hit!.headers.authorization, undefined);
      assert.deepEqual(JSON.parse(hit!.body), { Analysis_Id: a.id, External_Id: a.externalId });
    });

    test('each completion is posted exactly once', async () => {
      const before = receiver.received.length;
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/once') });
        ids.push(a.id);
        await completeViaForms(new FormClient(server.url), a.id);
      }
      await receiver.waitFor(before + 4);
      // A second POST would come from a later look at the outbox: wait until it has had two.
      await dispatcherQuiet(server.running.deps.webhooks);
      const got = receiver.received.slice(before).map((r) => JSON.parse(r.body).Analysis_Id as string);
      assert.deepEqual(got.sort(), ids.sort());
    });

    test('an assessment without WebhookUrl sends nothing and reports no webhook', async () => {
      const before = receiver.received.length;
      const a = await newAssessment(server.url, creds);
      await completeViaForms(new FormClient(server.url), a.id);
      const res = await a.api.get(`/api/anonymous/assessment/${a.id}`);
      assert.equal(res.body.Data.Webhook, null);
      await dispatcherQuiet(server.running.deps.webhooks);
      assert.equal(receiver.received.length, before);
    });
  },
);
