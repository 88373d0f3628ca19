import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { sampleValue, scrape } from '../helpers/metrics.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

type Entry = { Kind: string; Status: string; Attempts: number; LastReply: string | null; Recipient: string | null };
type Api = Awaited<ReturnType<typeof newAssessment>>['api'];
const invitation = async (api: Api, id: string) => ((await api.get(`/api/anonymous/assessment/${id}/emails`)).body.Data as Entry[])[0]!;

suiteOnEachDatabase(
  'mail delivery: retries and refusals',
  { smtp: true, env: { MAIL_POLL_INTERVAL_MS: '50', MAIL_RETRY_BASE_MS: '100', MAIL_RETRY_FOR_MS: '4000', METRICS_PORT: '0' } },
  ({ server, sink, creds }) => {
    // Retries 100 ms apart, doubling, given up after 4 s: the 24 hours of production, shrunk.

    test('with the SMTP server down, the invitation is retried until it is back, then delivered once', async () => {
      await sink.close();
      const to = address();
      const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
      const waiting = await eventually(async () => {
        const m = await invitation(a.api, a.id);
        return m.Attempts >= 2 ? m : undefined;
      });
      assert.equal(waiting.Status, 'Pending');
      assert.ok(waiting.LastReply, 'the connection error is recorded');
      assert.equal(sink.to(to).length, 0);
      await sink.listen();
      const sent = await eventually(async () => {
        const m = await invitation(a.api, a.id);
        return m.Status === 'Sent' ? m : undefined;
      });
      assert.ok(sent.Attempts >= 3);
      await dispatcherQuiet(server.running.deps.mail);
      assert.equal(sink.to(to).length, 1);
    });

    test('a 4xx refusal is retried; a 5xx fails at once and is not tried again', async () => {
      const soon = address();
      const never = address();
      let refusedSoon = 0;
      sink.refuse = (rcpt) => {
        if (rcpt === soon && refusedSoon++ < 2) return { code: 451, message: 'Greylisted, try again later' };
        if (rcpt === never) return { code: 550, message: `<${never}>: No such user here` };
        return undefined;
      };
      const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: soon });
      const b = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: never });
      const sent = await eventually(async () => {
        const m = await invitation(a.api, a.id);
        return m.Status === 'Sent' ? m : undefined;
      });
      assert.equal(sent.Attempts, 3);
      const failed = await eventually(async () => {
        const m = await invitation(b.api, b.id);
        return m.Status === 'Failed' ? m : undefined;
      });
      assert.equal(failed.Attempts, 1);
      assert.match(failed.LastReply!, /^550/);
      assert.ok(!failed.LastReply!.includes(never), 'the address in the reply is masked');
      // Longer than several retry delays, then two looks at the outbox: still one attempt.
      await new Promise((r) => setTimeout(r, 500));
      await dispatcherQuiet(server.running.deps.mail);
      assert.equal((await invitation(b.api, b.id)).Attempts, 1);
      assert.equal(sink.to(never).length, 0);
      assert.equal(sink.to(soon).length, 1);
    });

    test('a transient refusal that lasts is given up after MAIL_RETRY_FOR_MS', async () => {
      const to = address();
      sink.refuse = (rcpt) => (rcpt === to ? { code: 421, message: 'Service not available' } : undefined);
      const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
      const failed = await eventually(async () => {
        const m = await invitation(a.api, a.id);
        return m.Status === 'Failed' ? m : undefined;
      }, 20_000);
      assert.match(failed.LastReply!, /^given up after retrying: 421/);
      assert.ok(failed.Attempts >= 3);
    });

    test('metrics count mail by kind and outcome', async () => {
      await dispatcherQuiet(server.running.deps.mail);
      const { samples } = await scrape(server.running.metricsUrl!);
      const count = (outcome: string) => sampleValue(samples, 'assay_mail_messages_total', { kind: 'invitation', outcome }) ?? 0;
      assert.equal(count('sent'), sink.caught.length, 'one sent per message the sink holds');
      assert.equal(count('failed'), 2, 'the 5xx and the one given up');
      assert.ok(count('retry') >= 2 + 2 + 2, `retries counted: ${count('retry')}`);
    });
  },
);
