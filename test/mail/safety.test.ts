import assert from 'node:assert/strict';
import { updateMailSettings } from '../../src/mail/settings-store.js';
import { updatePortalSettings } from '../../src/tenancy/portal-settings-store.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, candidate, errorCode, uniqueId } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

/** The header lines of a raw message, unfolded: what a mail client would read as headers. */
function headerLines(raw: string): string[] {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return head.replace(/\r\n[ \t]+/g, ' ').split('\r\n');
}

suiteOnEachDatabase(
  'mail: header injection, and a server without SMTP_URL',
  { smtp: true, env: { MAIL_POLL_INTERVAL_MS: '60000' } },
  ({ server, sink, creds, another }) => {
    test('the API refuses CR or LF in an e-mail address or a name', async () => {
      const api = apiClient(server.url, creds);
      for (const fields of [
        { Email: 'v@example.com\r\nBcc: w@evil.example' },
        { FirstName: 'Eve\r\nBcc: w@evil.example' },
        { LastName: 'Doe\nX-Injected: yes' },
      ]) {
        const r = await api.createCandidate(candidate(fields));
        assert.equal(r.status, 400, JSON.stringify(fields));
        assert.equal(errorCode(r), 'ValidationError');
      }
    });

    test('on the wire: CR/LF in names stored by other means adds no header and no recipient; an address with them is not sent to', async () => {
      const store = server.running.deps.store;
      // Written straight into the database, past the API's checks, as an older version or a tool might have.
      await updatePortalSettings(store, creds.apiKeyId, { organisation_name: 'Acme\r\nX-Injected: organisation' });
      await updateMailSettings(store, creds.apiKeyId, { from_name: 'HR\r\nBcc: from@evil.example', reply_to: 'hr@acme.example\r\nBcc: reply@evil.example' });
      const to = address();
      const now = new Date().toISOString();
      const insert = (externalId: string, email: string, first: string) =>
        store.db
          .insertInto('candidates')
          .values({
            external_id: externalId,
            tenant_id: creds.tenantId,
            email,
            first_name: first,
            last_name: 'Doe\nX-Injected: name',
            preposition: '',
            gender: 0,
            needs_to_update_data: 0,
            created_at: now,
            updated_at: now,
          })
          .execute();
      const good = uniqueId('inj');
      await insert(good, to, 'Eve\r\nBcc: name@evil.example');
      const bad = uniqueId('inj');
      await insert(bad, 'v@example.com\r\nBcc: address@evil.example', 'Mallory');
      const api = apiClient(server.url, creds);
      const a = await api.createAssessment({ ExternalId: good, AssessmentType: 0, SendInvitation: true });
      assert.equal(a.status, 201, a.text);
      const b = await api.createAssessment({ ExternalId: bad, AssessmentType: 0, SendInvitation: true });
      assert.equal(b.status, 201, b.text);

      const [m] = await eventually(async () => (sink.to(to).length > 0 ? sink.to(to) : undefined));
      await dispatcherQuiet(server.running.deps.mail);
      assert.deepEqual(m!.rcptTo, [to], 'one recipient in the envelope');
      const lines = headerLines(m!.raw);
      assert.ok(
        lines.some((l) => /^Subject:/i.test(l)),
        'a positive control: the headers were read',
      );
      assert.deepEqual(
        lines.filter((l) => /^(bcc|cc|x-injected):/i.test(l)),
        [],
      );
      assert.equal(m!.parsed.headers.get('bcc'), undefined);
      assert.equal(m!.parsed.to && !Array.isArray(m!.parsed.to) ? m!.parsed.to.value.length : -1, 1);
      assert.equal(m!.parsed.replyTo, undefined, 'a reply-to that is not one plain address is left out');
      assert.ok(!m!.raw.includes('evil.example>'), 'no injected address became an address header');
      // Nothing at all went to the address with a line break, nor to anyone at evil.example.
      assert.equal(sink.caught.filter((c) => c.rcptTo.some((r) => r.includes('evil') || r.startsWith('v@'))).length, 0);
      const log = (await api.get(`/api/anonymous/assessment/${b.body.Data.AnalysisId}/emails`)).body.Data;
      assert.equal(log[0].Status, 'Failed');
      assert.match(log[0].LastReply, /not a single plain e-mail address/);
    });

    test('without SMTP_URL: SendInvitation true is a 400 naming SMTP_URL; without it, creation is as before', async () => {
      const plain = await another();
      const c = await plain.tenant();
      const api = apiClient(plain.url, c);
      const body = candidate();
      assert.equal((await api.createCandidate(body)).status, 201);
      const refused = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0, SendInvitation: true });
      assert.equal(refused.status, 400);
      assert.equal(errorCode(refused), 'ValidationError');
      assert.match(refused.body.error.message, /SMTP_URL/);
      assert.equal(refused.body.error.innererror.setting, 'SMTP_URL');
      const a = await newAssessment(plain.url, c, { SendInvitation: false });
      const b = await newAssessment(plain.url, c);
      assert.deepEqual((await api.get(`/api/anonymous/assessment/${b.id}/emails`)).body.Data, []);
      const resend = await api.post(`/api/anonymous/assessment/${a.id}/invitation`, undefined);
      assert.equal(resend.status, 400);
      assert.match(resend.body.error.message, /SMTP_URL/);
    });
  },
);
