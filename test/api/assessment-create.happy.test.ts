import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { provisionKey } from '../../src/tenancy/provision.js';
import { findAssessment } from '../../src/assessments/assessments-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate } from '../helpers/http.js';

suiteOnEachDatabase('POST /api/anonymous/assessment, happy paths', { tenant: { portalDomain: 'https://assess.acme.test' } }, ({ server, creds, api }) => {
  async function newCandidate(): Promise<string> {
    const body = candidate();
    assert.equal((await api.createCandidate(body)).status, 201);
    return String(body.ExternalId);
  }

  test('201: AnalysisId is a URL-safe token of 22+ characters and the last segment of AssessmentUrl', async () => {
    const externalId = await newCandidate();
    for (const AssessmentType of [0, 1]) {
      const res = await api.createAssessment({ ExternalId: externalId, AssessmentType });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.StatusCode, 201);
      assert.equal(res.body.Message, null);
      const { AnalysisId, AssessmentUrl } = res.body.Data;
      assert.match(AnalysisId, /^[A-Za-z0-9_-]{22,}$/);
      assert.equal(AssessmentUrl, `https://assess.acme.test/anonymous/analyse/start/${AnalysisId}`);
      assert.equal(new URL(AssessmentUrl).pathname.split('/').pop(), AnalysisId);
      const row = await findAssessment(server.running.deps.store, AnalysisId);
      assert.equal(row?.assessment_type, AssessmentType);
      assert.equal(row?.status, 'Created');
      assert.equal(row?.external_id, externalId);
    }
  });

  test('AnalysisIds do not repeat', async () => {
    const externalId = await newCandidate();
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add((await api.createAssessment({ ExternalId: externalId, AssessmentType: i % 2 })).body.Data.AnalysisId);
    assert.equal(ids.size, 30);
  });

  test('the key used decides the portal domain', async () => {
    const externalId = await newCandidate();
    const second = await provisionKey(server.running.deps.store, creds.tenantId, 'http://localhost:8080');
    const viaSecond = apiClient(server.url, { ...creds, apiKey: second.apiKey });
    const res = await viaSecond.createAssessment({ ExternalId: externalId, AssessmentType: 0 });
    assert.equal(res.status, 201, res.text);
    assert.ok(res.body.Data.AssessmentUrl.startsWith('http://localhost:8080/anonymous/analyse/start/'));
    const first = await api.createAssessment({ ExternalId: externalId, AssessmentType: 0 });
    assert.ok(first.body.Data.AssessmentUrl.startsWith('https://assess.acme.test/anonymous/analyse/start/'));
  });

  test('ReturnUrl and webhook settings are stored; the webhook password only encrypted', async () => {
    const externalId = await newCandidate();
    const secret = 'webhook-secret-Zq81';
    const res = await api.createAssessment({
      externalid: externalId,
      assessmenttype: 1,
      returnUrl: 'https://ats.example.com/done?candidate=7',
      webhookUrl: 'https://hooks.example.com/assay',
      webhookUsername: 'ats',
      webhookPassword: secret,
      SomethingElse: true,
    });
    assert.equal(res.status, 201, res.text);
    const row = await findAssessment(server.running.deps.store, res.body.Data.AnalysisId);
    assert.equal(row?.return_url, 'https://ats.example.com/done?candidate=7');
    assert.equal(row?.webhook_url, 'https://hooks.example.com/assay');
    assert.equal(row?.webhook_username, 'ats');
    assert.ok(row?.webhook_password_enc);
    assert.ok(!row.webhook_password_enc.includes(secret));
    assert.equal(server.running.deps.secretBox.open(row.webhook_password_enc, row.analysis_id), secret);
  });

  test('anonymous webhooks: a WebhookUrl without credentials', async () => {
    const res = await api.createAssessment({ ExternalId: await newCandidate(), AssessmentType: 0, WebhookUrl: 'http://93.184.215.14/hook' });
    assert.equal(res.status, 201, res.text);
    const row = await findAssessment(server.running.deps.store, res.body.Data.AnalysisId);
    assert.equal(row?.webhook_username, null);
    assert.equal(row?.webhook_password_enc, null);
  });
});
