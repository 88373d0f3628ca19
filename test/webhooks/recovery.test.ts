import assert from 'node:assert/strict';
import { after } from 'node:test';
import { test } from '../helpers/deadline.js';
import { latestAttempt } from '../../src/webhooks/attempt-log-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, errorCode } from '../helpers/http.js';
import { Receiver, eventually } from '../helpers/receiver.js';
import type { TestServer } from '../helpers/server.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

// The first test's server restarts; the others go on with the restarted one, or start their own.
suiteOnEachDatabase('a delivery claimed before a crash is never sent again, unless an operator redelivers it', { start: false }, ({ another }) => {
  const receivers: Receiver[] = [];
  let server: TestServer | undefined;
  after(async () => {
    for (const r of receivers) await r.close();
  });

  test('after a restart it is marked Unknown and the receiver gets nothing', async () => {
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' };
    const first = await another(env);
    const creds = await first.tenant();
    const a = await newAssessment(first.url, creds, { WebhookUrl: receiver.url() });
    // What a crash mid-attempt leaves behind: Completed, and the row claimed by a dead process.
    const claimedAt = new Date(Date.now() - 5 * 60_000).toISOString();
    await first.running.deps.store.write(async (trx) => {
      await trx.updateTable('assessments').set({ status: 'Completed', completed_at: claimedAt }).where('analysis_id', '=', a.id).execute();
      const { tenant_id } = await trx.selectFrom('assessments').select('tenant_id').where('analysis_id', '=', a.id).executeTakeFirstOrThrow();
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: `crashed-${a.id}`,
          analysis_id: a.id,
          tenant_id,
          kind: 'automatic',
          requested_by: null,
          status: 'sending',
          created_at: claimedAt,
          claimed_at: claimedAt,
          claimed_by: 'crashed-process',
          attempted_at: null,
          duration_ms: null,
          response_status: null,
          error: null,
        })
        .execute();
    });
    await first.stop(true);

    server = await another(env, { reuse: first });
    const row = await eventually(async () => {
      const d = (await latestAttempt(server!.running.deps.store, a.id))?.latest;
      return d?.status === 'unknown' ? d : undefined;
    });
    assert.match(row.error ?? '', /outcome is unknown/);
    const api = apiClient(server.url, creds);
    const status = await api.get(`/api/anonymous/assessment/${a.id}`);
    assert.equal(status.body.Data.Webhook.Status, 'Unknown');
    await dispatcherQuiet(server.running.deps.webhooks);
    assert.equal(receiver.received.length, 0);

    // The operator recovers it on purpose: one more attempt, the same body.
    const redeliver = await api.post(`/api/anonymous/assessment/${a.id}/webhook/redeliver`, undefined);
    assert.equal(redeliver.status, 202, redeliver.text);
    assert.equal(redeliver.body.Data.Status, 'Pending');
    const [hook] = await receiver.waitFor(1);
    assert.deepEqual(JSON.parse(hook!.body), { Analysis_Id: a.id, External_Id: a.externalId });
    const log = await eventually(async () => {
      const l = (await api.get(`/api/anonymous/assessment/${a.id}/webhooks`)).body.Data;
      return l.length === 2 && l[1].Status === 'Delivered' ? l : undefined;
    });
    assert.deepEqual(
      log.map((x: any) => [x.Kind, x.Status]),
      [
        ['Automatic', 'Unknown'],
        ['Manual', 'Delivered'],
      ],
    );
    const after = (await api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Webhook;
    assert.deepEqual([after.Status, after.Attempts], ['Delivered', 2]);
    await dispatcherQuiet(server.running.deps.webhooks);
    assert.equal(receiver.received.length, 1, 'exactly one POST for one redelivery');
  });

  test('redelivery is refused before completion, without a WebhookUrl, for another tenant, and past five an hour', async () => {
    server ??= await another({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' });
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const creds = await server.tenant();
    const api = apiClient(server.url, creds);
    const open = await newAssessment(server.url, creds, { WebhookUrl: receiver.url() });
    const redeliver = (who: ReturnType<typeof apiClient>, id: string) => who.post(`/api/anonymous/assessment/${id}/webhook/redeliver`, undefined);
    let res = await redeliver(api, open.id);
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'NotRedeliverable');
    assert.equal(res.body.error.innererror.reason, 'not-completed');
    const plain = await newAssessment(server.url, creds);
    await completeViaForms(new FormClient(server.url), plain.id);
    assert.equal((await redeliver(api, plain.id)).body.error.innererror.reason, 'no-webhook');
    const done = await newAssessment(server.url, creds, { WebhookUrl: receiver.url() });
    await completeViaForms(new FormClient(server.url), done.id);
    await receiver.waitFor(1);
    assert.equal((await redeliver(apiClient(server.url, await server.tenant()), done.id)).status, 404, "another tenant's");
    for (let i = 0; i < 5; i++) {
      res = await redeliver(api, done.id);
      assert.equal(res.status, 202, res.text);
      await receiver.waitFor(2 + i);
      await eventually(async () => ((await api.get(`/api/anonymous/assessment/${done.id}`)).body.Data.Webhook.Status === 'Delivered' ? true : undefined));
    }
    res = await redeliver(api, done.id);
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) > 3_000, 'the window is an hour');
    const policy = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((h) => res.headers.get(h));
    assert.deepEqual(policy, ['5', '0', res.headers.get('retry-after')], "the RateLimit headers are the redelivery limit's, not the key's unspent minute");
    assert.equal((await api.get(`/api/anonymous/assessment/${done.id}`)).body.Data.Webhook.Attempts, 6);
  });

  test("the delivery log is the tenant's own, an odd id is a plain 404, and a redelivery with a huge body is refused unread", async () => {
    server ??= await another({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' });
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const creds = await server.tenant();
    const api = apiClient(server.url, creds);
    const done = await newAssessment(server.url, creds, { WebhookUrl: receiver.url() });
    await completeViaForms(new FormClient(server.url), done.id);
    await receiver.waitFor(1);
    assert.equal((await api.get(`/api/anonymous/assessment/${done.id}/webhooks`)).body.Data.length, 1);

    const other = apiClient(server.url, await server.tenant());
    const theirs = await other.get(`/api/anonymous/assessment/${done.id}/webhooks`);
    const unknown = await other.get('/api/anonymous/assessment/no-such-assessment-at-all/webhooks');
    assert.deepEqual([theirs.status, errorCode(theirs)], [404, 'NotFound']);
    assert.deepEqual(theirs.body, unknown.body, "another tenant's log reads exactly like an unknown id");
    for (const odd of ['%00', 'a'.repeat(2_000), '..%2F..%2Fetc']) {
      const res = await api.get(`/api/anonymous/assessment/${odd}/webhooks`);
      assert.ok([400, 404].includes(res.status), `${odd.slice(0, 20)}: ${res.status}`);
      errorCode(res);
    }

    const huge = await api.post(`/api/anonymous/assessment/${done.id}/webhook/redeliver`, JSON.stringify({ pad: 'x'.repeat(200_000) }), {
      'content-type': 'application/json',
    });
    assert.deepEqual([huge.status, errorCode(huge)], [413, 'PayloadTooLarge']);
    await dispatcherQuiet(server.running.deps.webhooks);
    assert.equal(receiver.received.length, 1, 'a refused redelivery sends nothing');
  });
});
