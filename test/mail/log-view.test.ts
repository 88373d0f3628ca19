import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';

type Entry = { Status: string; Attempts: number; LastReply: string | null };
type Api = Awaited<ReturnType<typeof newAssessment>>['api'];
const invitation = async (api: Api, id: string) => ((await api.get(`/api/anonymous/assessment/${id}/emails`)).body.Data as Entry[])[0]!;

// What a tenant reads for a failure of Assay's own network: the words, not the relay's address.
const GENERALISED = 'no reply from the mail server (a network, DNS, TLS or timeout failure); the operator has the details';

suiteOnEachDatabase(
  'the mail log as a tenant reads it',
  { smtp: true, env: { MAIL_POLL_INTERVAL_MS: '50', MAIL_RETRY_BASE_MS: '100' } },
  ({ server, sink, creds }) => {
    test("a refused connection to the relay shows generalised, without the relay's address or port; the row keeps the detail", async () => {
      const port = String(sink.port);
      await sink.close();
      try {
        const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: address() });
        const m = await eventually(async () => {
          const e = await invitation(a.api, a.id);
          return e.Attempts >= 1 ? e : undefined;
        });
        assert.equal(m.Status, 'Pending', 'to be tried again');
        assert.equal(m.LastReply, GENERALISED);
        assert.ok(!m.LastReply!.includes('127.0.0.1') && !m.LastReply!.includes(port));
        const row = await server.running.deps.store.db
          .selectFrom('mail_messages')
          .select('smtp_reply')
          .where('analysis_id', '=', a.id)
          .executeTakeFirstOrThrow();
        assert.match(row.smtp_reply!, /ECONNREFUSED/, "the operator's copy");
        assert.ok(row.smtp_reply!.includes(port));
      } finally {
        await sink.listen();
      }
    });

    test("the relay's own reply stays as it said it, the address in it masked", async () => {
      const to = address();
      sink.refuse = (rcpt) => (rcpt === to ? { code: 550, message: `5.1.1 <${to}>: user unknown` } : undefined);
      const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
      const m = await eventually(async () => {
        const e = await invitation(a.api, a.id);
        return e.Status === 'Failed' ? e : undefined;
      });
      assert.equal(m.LastReply, `550 5.1.1 <${to[0]}***@example.com>: user unknown`);
    });
  },
);
