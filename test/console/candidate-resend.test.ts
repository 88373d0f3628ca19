import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { plain } from '../helpers/html.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';
import { signedInUser } from './console-helpers.js';

suiteOnEachDatabase(
  "the console's resend with an SMTP server",
  { smtp: true, env: { TRUST_PROXY: '127.0.0.1', MAIL_POLL_INTERVAL_MS: '50', METRICS_PORT: '0' } },
  ({ server, sink, creds, cliEnv }) => {
    test('a recruiter resends an invitation: it is queued, audited and delivered', async () => {
      const to = address();
      const a = await newAssessment(server.url, creds, { SendInvitation: false }, { Email: to });
      const browser = await signedInUser(server.url, cliEnv, creds.tenant, 'remi@example.test', 'correct horse battery', 'recruiter');
      const path = `/console/candidates/${encodeURIComponent(a.externalId)}`;
      const form = await browser.get(`${path}?lang=en`);
      const res = await browser.post(`${path}/resend`, { _csrf: csrfToken(form.html), AnalysisId: a.id });
      assert.equal(res.status, 202, res.html.slice(0, 300));
      assert.ok(plain(res.html).includes('on its way again'));
      await eventually(async () => (sink.caught.some((c) => c.rcptTo.includes(to)) ? true : undefined), 20_000, 'the invitation delivered');
      const audit = await server.running.deps.store.db.selectFrom('console_audit').select('action').where('action', '=', 'invitation.resend').execute();
      assert.equal(audit.length, 1);
    });
  },
);
