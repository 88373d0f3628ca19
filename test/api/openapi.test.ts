import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('GET /openapi.json and /docs', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.stop());

  test('OpenAPI 3.1, generated from the route schemas, with the envelopes and error codes', async () => {
    const res = await request(`${server.url}/openapi.json`);
    assert.equal(res.status, 200);
    const doc = res.body;
    assert.equal(doc.openapi, '3.1.0');
    const candidate = doc.paths['/api/anonymous/candidate'].post;
    assert.deepEqual(candidate.requestBody.content['application/json'].schema.required, ['ExternalId', 'Email', 'FirstName', 'LastName', 'Preposition']);
    const created = candidate.responses['201'].content['application/json'].schema;
    assert.deepEqual(Object.keys(created.properties), ['StatusCode', 'Message', 'Data']);
    for (const status of ['400', '401', '413', '415']) {
      assert.equal(candidate.responses[status].content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope', status);
    }
    const envelope = doc.components.schemas.ErrorEnvelope;
    assert.deepEqual(Object.keys(envelope.properties.error.properties), ['code', 'message', 'innererror']);
    for (const code of ['ExternalIdAlreadyExists', 'NoCandidateFound', 'InvalidAssessmentType', 'InvalidApiKey', 'InvalidCredentials']) {
      assert.ok(JSON.stringify(doc).includes(code), code);
    }
    const assessment = doc.paths['/api/anonymous/assessment'].post;
    assert.ok(assessment.requestBody.content['application/json'].schema.properties.WebhookPassword);
    assert.ok(assessment.responses['201'].content['application/json'].schema.properties.Data.properties.AssessmentUrl);
    assert.deepEqual(doc.security, [{ basicAuth: [], apiKey: [] }]);
  });

  test('the status lookup is marked as an extension', async () => {
    const doc = (await request(`${server.url}/openapi.json`)).body;
    const get = doc.paths['/api/anonymous/assessment/{AnalysisId}'].get;
    assert.equal(get['x-assay-extension'], true);
    assert.deepEqual(get.tags, ['Extensions']);
    assert.equal(get.responses['404'].content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope');
  });

  test('interactive docs are served', async () => {
    const res = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /swagger-ui/i);
  });

  test('health and readiness', async () => {
    assert.deepEqual((await request(`${server.url}/healthz`)).body, { status: 'ok' });
    assert.deepEqual((await request(`${server.url}/readyz`)).body, { status: 'ready' });
  });
});
