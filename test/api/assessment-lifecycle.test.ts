import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient, startPath } from '../helpers/forms.js';
import { updatePortalSettings } from '../../src/tenancy/portal-settings-store.js';
import { apiClient, authHeaders, candidate, errorCode, request } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

suiteOnEachDatabase(
  'expiry and cancellation',
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' }, receiver: true },
  ({ server, creds, receiver }) => {
    before(async () => {
      await updatePortalSettings(server.running.deps.store, creds.apiKeyId, { organisation_name: 'Acme Recruitment' });
    });

    test('ExpiresAt is taken, checked, and defaults to 90 days after creation', async () => {
      const api = apiClient(server.url, creds);
      const body = candidate();
      await api.createCandidate(body);
      const at = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const given = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0, ExpiresAt: at });
      assert.equal(given.status, 201);
      assert.equal((await api.get(`/api/anonymous/assessment/${given.body.Data.AnalysisId}`)).body.Data.ExpiresAt, at);
      const plain = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0 });
      const days = (Date.parse((await api.get(`/api/anonymous/assessment/${plain.body.Data.AnalysisId}`)).body.Data.ExpiresAt) - Date.now()) / 86_400_000;
      assert.ok(days > 89.9 && days <= 90, `${days} days`);
      for (const bad of [
        'yesterday',
        '2020-01-01T00:00:00Z',
        '2026-13-01T00:00:00Z',
        new Date(Date.now() + 4000 * 86_400_000).toISOString(),
        '2030-01-01T00:00:00',
      ]) {
        const res = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0, ExpiresAt: bad });
        assert.equal(res.status, 400, bad);
        assert.equal(errorCode(res), 'ValidationError');
        assert.equal(res.body.error.innererror.field, 'ExpiresAt');
      }
    });

    test('an expired link cannot be started or continued: a page names the organisation; status Expired; no webhook', async () => {
      // Five seconds leave a busy machine room to create and open it while it is valid.
      const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/expired'), ExpiresAt: new Date(Date.now() + 5_000).toISOString() });
      const client = new FormClient(server.url);
      assert.equal((await client.submit(startPath(a.id), {})).status, 303, 'it opens while it is valid');
      await eventually(
        async () => (Date.now() > Date.parse((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ExpiresAt) ? true : undefined),
        15_000,
      );
      for (const path of [startPath(a.id), `/anonymous/analyse/${a.id}/questions/1`]) {
        const page = await client.get(path);
        assert.equal(page.status, 410, path);
        assert.match(page.html, /This link has expired/);
        assert.match(page.html, /ask Acme Recruitment for a new link/);
      }
      const post = await client.post(`/anonymous/analyse/${a.id}/questions/1`, { _csrf: 'x' });
      assert.ok(post.status === 403 || post.status === 410, String(post.status));
      const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(status.Status, 'Expired');
      assert.equal((await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body.Done, false);
      // The positive control: a completion's webhook is sent, and counted, by the same means.
      const control = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/expired-control') });
      await completeViaForms(new FormClient(server.url), control.id);
      await dispatcherQuiet(server.running.deps.webhooks);
      assert.equal(receiver.received.filter((r) => r.url === '/expired-control').length, 1, 'the control was sent');
      assert.equal(receiver.received.filter((r) => r.url === '/expired').length, 0);
    });

    test('DELETE cancels an open assessment; its link shows that it was withdrawn; twice is fine; completed is 409', async () => {
      const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/cancelled') });
      const cancelled = await request(`${server.url}/api/anonymous/assessment/${a.id}`, { method: 'DELETE', headers: authHeaders(creds) });
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.body.Data.Status, 'Cancelled');
      assert.equal(cancelled.body.StatusCode, 200);
      const page = await new FormClient(server.url).get(startPath(a.id));
      assert.equal(page.status, 410);
      assert.match(page.html, /This questionnaire was withdrawn/);
      assert.match(page.html, /Acme Recruitment has withdrawn/);
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Status, 'Cancelled');
      const again = await request(`${server.url}/api/anonymous/assessment/${a.id}`, { method: 'DELETE', headers: authHeaders(creds) });
      assert.equal(again.status, 200);

      // Completed, with a webhook: also the positive control for the count of webhooks below.
      const done = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/cancel-control') });
      await completeViaForms(new FormClient(server.url), done.id);
      const refused = await request(`${server.url}/api/anonymous/assessment/${done.id}`, { method: 'DELETE', headers: authHeaders(creds) });
      assert.equal(refused.status, 409);
      assert.equal(errorCode(refused), 'AlreadyCompleted');
      await dispatcherQuiet(server.running.deps.webhooks);
      assert.equal(receiver.received.filter((r) => r.url === '/cancel-control').length, 1, 'the control was sent');
      assert.equal(receiver.received.filter((r) => r.url === '/cancelled').length, 0);
    });

    test("another tenant's assessment, or an unknown one, cannot be cancelled: 404", async () => {
      const a = await newAssessment(server.url, creds);
      const other = await server.tenant();
      for (const [id, who] of [
        [a.id, other],
        ['AAAAAAAAAAAAAAAAAAAAAAAA', creds],
      ] as const) {
        const res = await request(`${server.url}/api/anonymous/assessment/${id}`, { method: 'DELETE', headers: authHeaders(who) });
        assert.equal(res.status, 404);
        assert.equal(errorCode(res), 'NotFound');
      }
      assert.notEqual((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Status, 'Cancelled');
    });
  },
);
