import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ERROR_STATUS } from '../../src/schemas/errors.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, authHeaders, candidate, request, type Reply } from '../helpers/http.js';
import { committedSnapshot, committedTypes, snapshotOf, fetchDocument, typesOf } from '../helpers/openapi.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** Every operation of the document: path, method, operation object. */
function operations(doc: Record<string, any>): Array<{ path: string; method: string; op: Record<string, any> }> {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );
}

suiteOnEachDatabase('the OpenAPI document is true to the server', { on: 'first' }, ({ server, creds }) => {
  let doc: Record<string, any>;
  before(async () => {
    doc = await fetchDocument(server.url);
  });

  test('it is valid OpenAPI 3.1 to @readme/openapi-parser', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await validate(structuredClone(doc) as never);
    assert.deepEqual(result, { valid: true, warnings: [], specification: 'OpenAPI' });
  });

  test('the committed TypeScript types are what openapi-typescript makes of it (npm run api-types)', async () => {
    assert.equal(committedTypes(), await typesOf(doc), 'test/generated/assay-api.ts is stale: run npm run api-types');
  });

  test('the document is the committed snapshot, to the byte (npm run api-types writes it)', () => {
    assert.equal(committedSnapshot(), snapshotOf(doc), 'test/generated/openapi.json differs from /openapi.json: review the change, then npm run api-types');
    const widened = structuredClone(doc);
    widened.paths['/api/anonymous/assessment'].post.requestBody.content['application/json'].schema.properties.AssessmentType.maximum = 99;
    assert.notEqual(committedSnapshot(), snapshotOf(widened), 'a widened bound shows');
  });

  test('security is per operation: the probes are open, every /api operation needs Basic and the api-key', () => {
    assert.equal(doc.security, undefined, 'no global security');
    const ops = operations(doc);
    assert.ok(ops.length >= 12);
    for (const { path, method, op } of ops) {
      if (path === '/healthz' || path === '/readyz') assert.deepEqual(op.security, [], `${method} ${path}`);
      else {
        assert.ok(path.startsWith('/api/'), `only the API and the probes are documented, not ${path}`);
        assert.deepEqual(op.security, [{ basicAuth: [], apiKey: [] }], `${method} ${path}`);
      }
    }
  });

  test('every /api operation lists its error codes with an example each, in the ErrorEnvelope', () => {
    const envelope = new Ajv2020({ strict: false }).compile({ ...doc.components.schemas.ErrorEnvelope, $id: undefined });
    for (const { path, method, op } of operations(doc).filter((o) => o.path.startsWith('/api/'))) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const status of ['400', '401', '429', '500', '503']) assert.ok(op.responses[status], `${where} documents ${status}`);
      assert.deepEqual(Object.keys(op.responses['401'].content['application/json'].examples).sort(), ['InvalidApiKey', 'InvalidCredentials'], where);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        const media = response.content['application/json'];
        assert.equal(media.schema.$ref, '#/components/schemas/ErrorEnvelope', `${where} ${status}`);
        for (const [code, example] of Object.entries(media.examples as Record<string, { value: any }>)) {
          assert.equal(ERROR_STATUS[code as keyof typeof ERROR_STATUS], Number(status), `${where}: ${code} under ${status}`);
          assert.equal(example.value.error.code, code);
          assert.ok(envelope(example.value), `${where} ${code}: the example is an ErrorEnvelope`);
          assert.ok(response.description.includes(`\`${code}\``), `${where} ${status} says when ${code} comes`);
        }
      }
    }
  });

  test("the examples carry the server's real messages", async () => {
    const api = apiClient(server.url, creds);
    const body = candidate();
    assert.equal((await api.createCandidate(body)).status, 201);
    const wrongKey = { ...authHeaders(creds), 'api-key': 'not-a-key' };
    const wrongPassword = authHeaders({ ...creds, password: 'not-the-password' });
    const { id } = await newAssessment(server.url, creds);
    const real: Array<[string, string, Reply]> = [
      ['post', '/api/anonymous/candidate', await api.createCandidate(body)],
      ['post', '/api/anonymous/candidate', await request(`${server.url}/api/anonymous/candidate`, { body: candidate(), headers: wrongKey })],
      ['post', '/api/anonymous/candidate', await request(`${server.url}/api/anonymous/candidate`, { body: candidate(), headers: wrongPassword })],
      [
        'post',
        '/api/anonymous/candidate',
        await request(`${server.url}/api/anonymous/candidate`, { body: 'x', headers: { ...authHeaders(creds), 'content-type': 'text/plain' } }),
      ],
      [
        'post',
        '/api/anonymous/candidate',
        await request(`${server.url}/api/anonymous/candidate`, {
          body: '{"ExternalId":',
          headers: { ...authHeaders(creds), 'content-type': 'application/json' },
        }),
      ],
      ['post', '/api/anonymous/candidate', await api.createCandidate(candidate({ Email: 'not-an-address' }))],
      ['post', '/api/anonymous/candidate', await api.createCandidate(candidate({ FirstName: 'x'.repeat(70_000) }))],
      ['post', '/api/anonymous/assessment', await api.createAssessment({ ExternalId: 'nobody-has-this-id', AssessmentType: 0 })],
      ['post', '/api/anonymous/assessment', await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 7 })],
      [
        'post',
        '/api/anonymous/assessment',
        await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0, WebhookUrl: 'http://127.0.0.1/hook' }),
      ],
      ['get', '/api/anonymous/assessment/{AnalysisId}', await api.get('/api/anonymous/assessment/no-such-assessment')],
    ];
    const cancelled = await request(`${server.url}/api/anonymous/assessment/${id}`, { method: 'DELETE', headers: authHeaders(creds) });
    assert.equal(cancelled.status, 200, cancelled.text);
    const seen = new Set<string>();
    for (const [method, path, reply] of real) {
      const code = reply.body?.error?.code as string;
      assert.ok(code, `${method} ${path}: ${reply.status} ${reply.text}`);
      const example = doc.paths[path][method].responses[String(reply.status)]?.content['application/json'].examples[code]?.value.error;
      assert.ok(example, `${method} ${path}: ${code} (${reply.status}) has an example`);
      // The message as sent; what the example's innererror shows is in the real one too.
      assert.equal(example.message, reply.body.error.message, code);
      for (const [k, v] of Object.entries(example.innererror)) assert.deepEqual(reply.body.error.innererror[k], v, `${code}: innererror.${k}`);
      seen.add(code);
    }
    assert.equal(seen.size, 11, 'eleven different codes compared');
  });
});

suiteOnEachDatabase('GET /openapi.json and /docs', { on: 'first', tenant: false }, ({ server }) => {
  test("the spec's two operations: their bodies, envelopes and error schema", async () => {
    const doc = await fetchDocument(server.url);
    const candidate = doc.paths['/api/anonymous/candidate'].post;
    assert.deepEqual(candidate.requestBody.content['application/json'].schema.required, ['ExternalId', 'Email', 'FirstName', 'LastName', 'Preposition']);
    const created = candidate.responses['201'].content['application/json'].schema;
    assert.deepEqual(Object.keys(created.properties), ['StatusCode', 'Message', 'Data']);
    for (const status of ['400', '401', '413', '415']) {
      assert.equal(candidate.responses[status].content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope', status);
    }
    const envelope = doc.components.schemas.ErrorEnvelope;
    assert.deepEqual(Object.keys(envelope.properties.error.properties), ['code', 'message', 'innererror']);
    const assessment = doc.paths['/api/anonymous/assessment'].post;
    assert.ok(assessment.requestBody.content['application/json'].schema.properties.WebhookPassword);
    assert.ok(assessment.responses['201'].content['application/json'].schema.properties.Data.properties.AssessmentUrl);
    assert.equal(candidate['x-assay-extension'], undefined);
    assert.equal(assessment['x-assay-extension'], undefined);
  });

  test('every other /api operation is marked as an extension', async () => {
    const doc = await fetchDocument(server.url);
    const extensions = operations(doc).filter(
      (o) => o.path.startsWith('/api/') && o.path !== '/api/anonymous/candidate' && o.path !== '/api/anonymous/assessment',
    );
    assert.equal(extensions.length, 13);
    assert.ok(
      extensions.some((o) => o.path === '/api/anonymous/assessmenttypes' && o.method === 'get'),
      'the catalogue is one',
    );
    const list = extensions.find((o) => o.path === '/api/anonymous/assessments' && o.method === 'get');
    assert.ok(list, 'the list is one');
    assert.ok(Array.isArray(list.op.security) && list.op.security.length > 0, 'the list needs credentials');
    for (const { path, method, op } of extensions) assert.equal(op['x-assay-extension'], true, `${method} ${path}`);
    assert.deepEqual(doc.paths['/api/anonymous/assessment/{AnalysisId}'].get.tags, ['Extensions']);
  });

  test('interactive docs are served', async () => {
    const res = await fetch(`${server.url}/docs`, { redirect: 'follow', signal: AbortSignal.timeout(10_000) });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /swagger-ui/i);
  });

  test('health and readiness', async () => {
    assert.deepEqual((await request(`${server.url}/healthz`)).body, { status: 'ok' });
    assert.deepEqual((await request(`${server.url}/readyz`)).body, { status: 'ready' });
  });
});
