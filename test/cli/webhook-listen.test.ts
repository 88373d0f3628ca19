import assert from 'node:assert/strict';
import { after } from 'node:test';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { spawnCli, type CliProcess } from '../helpers/process.js';
import { eventually } from '../helpers/receiver.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

type Delivery = { credentials: string; username: string | null; signature: string; body: string; method: string };
const delivery = (line: string) => (JSON.parse(line) as { delivery?: Delivery }).delivery;

suiteOnEachDatabase(
  "bin/assay webhook listen receives a real completion's webhook",
  { on: 'first', env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' } },
  ({ server, creds }) => {
    const listeners: CliProcess[] = [];
    after(async () => {
      for (const l of listeners) await l.stop();
    });

    async function listen(...args: string[]): Promise<{ listener: CliProcess; url: string }> {
      const listener = spawnCli(['webhook', 'listen', '--port', '0', '--json', ...args]);
      listeners.push(listener);
      const url = await listener.line((l) => (JSON.parse(l) as { listening?: string }).listening);
      return { listener, url };
    }

    test('with Basic credentials: it says they matched, shows the body, and answers 200', async () => {
      const { listener, url } = await listen('--username', 'ats', '--password', 's3cret');
      const a = await newAssessment(server.url, creds, { WebhookUrl: url, WebhookUsername: 'ats', WebhookPassword: 's3cret' });
      await completeViaForms(new FormClient(server.url), a.id);
      const got = await listener.line(delivery);
      assert.equal(got.method, 'POST');
      assert.equal(got.credentials, 'matched');
      assert.equal(got.username, 'a…', 'the start of the username, never all of it');
      assert.deepEqual(JSON.parse(got.body), { Analysis_Id: a.id, External_Id: a.externalId });
      // The listener prints a delivery as it answers it: the server records the answer a moment later.
      const attempts = await eventually(
        async () => {
          const log = await a.api.get(`/api/anonymous/assessment/${a.id}/webhooks`);
          const rows = log.body.Data.map((x: { Status: string; ResponseStatus: number }) => [x.Status, x.ResponseStatus]);
          return rows.some(([status]: [string]) => status === 'Sending') ? undefined : rows;
        },
        10_000,
        'the delivery to be recorded',
      );
      assert.deepEqual(attempts, [['Delivered', 200]]);

      const wrong = await newAssessment(server.url, creds, { WebhookUrl: url, WebhookUsername: 'ats', WebhookPassword: 'not-it' });
      await completeViaForms(new FormClient(server.url), wrong.id);
      assert.equal((await listener.line(delivery)).credentials, 'mismatched');
    });

    test('anonymous: no credentials expected, none sent', async () => {
      const { listener, url } = await listen();
      const a = await newAssessment(server.url, creds, { WebhookUrl: url });
      await completeViaForms(new FormClient(server.url), a.id);
      const got = await listener.line(delivery);
      assert.equal(got.credentials, 'none');
      assert.equal(got.signature, 'unsigned');
      assert.equal(JSON.parse(got.body).Analysis_Id, a.id);
    });

    test('without --json it prints a readable delivery and never the password', async () => {
      const listener = spawnCli(['webhook', 'listen', '--port', '0', '--username', 'ats', '--password', 'pw-hidden-42']);
      listeners.push(listener);
      const url = await listener.line((l) => /^Listening on (http:\/\/\S+)/.exec(l)?.[1]);
      const a = await newAssessment(server.url, creds, { WebhookUrl: `${url}hook`, WebhookUsername: 'ats', WebhookPassword: 'pw-hidden-42' });
      await completeViaForms(new FormClient(server.url), a.id);
      await listener.line((l) => (l.includes('Basic credentials matched (a…)') ? true : undefined));
      const body = await listener.line((l) => (l.trim().startsWith('body:') ? l : undefined));
      assert.ok(body.includes(a.id));
      await listener.stop();
      assert.ok(!listener.output().includes('pw-hidden-42'));
      assert.ok(listener.output().includes(a.id), 'the output is what was read');
    });
  },
);
