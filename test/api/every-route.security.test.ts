import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, authHeaders, candidate, errorCode, request, type Credentials } from '../helpers/http.js';

/** What a row's path and body are made from: an assessment and its candidate, the owner's or made up. */
interface Ids {
  id: string;
  externalId: string;
}

/** One row per route in /openapi.json; the generated tests below run for each. A route without a row fails the first test. */
interface Row {
  url(ids: Ids): string;
  /** The body a valid call sends, for routes that take one. */
  body?(ids: Ids): unknown;
  /** Public routes (probes): no credentials asked, no ids. */
  open?: true;
  /** Routes without an id in their path: there is no other tenant's id to try. */
  noIds?: true;
  /** What an id that is not the caller's gets, where the spec says other than a 404 NotFound. */
  notFound?: [status: number, code: string];
}

const ROUTES: Record<string, Row> = {
  'GET /healthz': { url: () => '/healthz', open: true },
  'GET /readyz': { url: () => '/readyz', open: true },
  'GET /api/anonymous/assessmenttypes': { url: () => '/api/anonymous/assessmenttypes', noIds: true },
  'GET /api/anonymous/assessments': { url: () => '/api/anonymous/assessments', noIds: true },
  'POST /api/anonymous/candidate': { url: () => '/api/anonymous/candidate', body: () => candidate(), noIds: true },
  'POST /api/anonymous/assessment': {
    url: () => '/api/anonymous/assessment',
    body: ({ externalId }) => ({ ExternalId: externalId, AssessmentType: 0 }),
    notFound: [400, 'NoCandidateFound'],
  },
  'GET /api/anonymous/assessment/{AnalysisId}': { url: ({ id }) => `/api/anonymous/assessment/${id}` },
  'DELETE /api/anonymous/assessment/{AnalysisId}': { url: ({ id }) => `/api/anonymous/assessment/${id}` },
  'GET /api/candidateanalysisresult/{token}/{culture}': { url: ({ id }) => `/api/candidateanalysisresult/${id}/en-GB` },
  'GET /api/anonymous/assessment/{AnalysisId}/report': { url: ({ id }) => `/api/anonymous/assessment/${id}/report` },
  'DELETE /api/anonymous/assessment/{AnalysisId}/report-links': { url: ({ id }) => `/api/anonymous/assessment/${id}/report-links` },
  'GET /api/anonymous/candidate/{ExternalId}': { url: ({ externalId }) => `/api/anonymous/candidate/${encodeURIComponent(externalId)}` },
  'DELETE /api/anonymous/candidate/{ExternalId}': { url: ({ externalId }) => `/api/anonymous/candidate/${encodeURIComponent(externalId)}` },
  'GET /api/anonymous/assessment/{AnalysisId}/webhooks': { url: ({ id }) => `/api/anonymous/assessment/${id}/webhooks` },
  'POST /api/anonymous/assessment/{AnalysisId}/webhook/redeliver': {
    url: ({ id }) => `/api/anonymous/assessment/${id}/webhook/redeliver`,
    body: () => ({}),
  },
  'POST /api/anonymous/assessment/{AnalysisId}/invitation': {
    url: ({ id }) => `/api/anonymous/assessment/${id}/invitation`,
    body: () => ({}),
  },
  'GET /api/anonymous/assessment/{AnalysisId}/emails': { url: ({ id }) => `/api/anonymous/assessment/${id}/emails` },
};

const UNKNOWN: Ids = { id: 'AAAAAAAAAAAAAAAAAAAAAAAA', externalId: 'no-such-candidate-anywhere' };
const entries = Object.entries(ROUTES);
const methodOf = (key: string) => key.split(' ')[0]!;

suiteOnEachDatabase('every API route', { env: { AUTH_FAILURES_PER_MINUTE: '100000' }, smtp: true }, ({ server, creds: owner }) => {
  let stranger: Credentials;
  before(async () => {
    stranger = await server.tenant();
  });

  const send = (key: string, url: string, headers: Record<string, string>, body?: unknown) =>
    request(server.url + url, { method: methodOf(key), headers, ...(body === undefined ? {} : { body }) });

  /** What the owner can see of an assessment and its candidate: must be the same before and after a stranger's call. */
  async function ownerView(ids: Ids): Promise<unknown> {
    const api = apiClient(server.url, owner);
    const paths = [
      `/api/anonymous/assessment/${ids.id}`,
      `/api/anonymous/candidate/${encodeURIComponent(ids.externalId)}`,
      `/api/anonymous/assessment/${ids.id}/webhooks`,
      `/api/anonymous/assessment/${ids.id}/emails`,
    ];
    const replies = await Promise.all(paths.map((p) => api.get(p)));
    for (const r of replies) assert.equal(r.status, 200, r.text);
    return replies.map((r) => r.body);
  }

  test('every route in /openapi.json has a row in this table, and every row a route', async () => {
    const doc = (await request(`${server.url}/openapi.json`)).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    assert.ok(documented.length >= 10, 'the document lists the routes');
    assert.deepEqual([...documented].sort(), Object.keys(ROUTES).sort());
  });

  test('without credentials every route but the probes is a 401 envelope; the probes answer', async () => {
    const ids = await newAssessment(server.url, owner);
    for (const [key, row] of entries) {
      const res = await send(key, row.url(ids), {}, row.body?.(ids));
      if (row.open) assert.ok(res.status === 200 || res.status === 503, `${key}: ${res.status}`);
      else assert.deepEqual([res.status, errorCode(res)], [401, 'InvalidApiKey'], key);
    }
  });

  test('with the right user and a wrong api-key every route but the probes is a 401 envelope', async () => {
    const ids = await newAssessment(server.url, owner);
    const wrong = { ...authHeaders(owner), 'api-key': `${owner.apiKey.slice(0, -4)}zzzz` };
    for (const [key, row] of entries.filter(([, r]) => !r.open)) {
      const res = await send(key, row.url(ids), wrong, row.body?.(ids));
      assert.deepEqual([res.status, errorCode(res)], [401, 'InvalidApiKey'], key);
    }
    assert.equal((await send('GET x', `/api/anonymous/assessment/${ids.id}`, authHeaders(owner))).status, 200, 'the right key is let in');
  });

  test("another tenant's ids, of a completed assessment, are a 404 (NoCandidateFound for a create) on every route with an id, and the owner's assessment, candidate, webhooks and mails are unchanged", async () => {
    for (const [key, row] of entries.filter(([, r]) => !r.open && !r.noIds)) {
      const ids = await newAssessment(server.url, owner);
      await completeViaForms(new FormClient(server.url), ids.id);
      const before = await ownerView(ids);
      const res = await send(key, row.url(ids), authHeaders(stranger), row.body?.(ids));
      assert.deepEqual([res.status, errorCode(res)], row.notFound ?? [404, 'NotFound'], `${key}: ${res.text}`);
      assert.deepEqual(await ownerView(ids), before, `${key} changed nothing of the owner's`);
      const own = await send(key, row.url(ids), authHeaders(owner), row.body?.(ids));
      assert.notEqual(own.status, 404, `${key}: the owner reaches it (${own.text.slice(0, 120)})`);
    }
  });

  test("an unknown id is the same envelope as another tenant's on every route with an id", async () => {
    for (const [key, row] of entries.filter(([, r]) => !r.open && !r.noIds)) {
      const res = await send(key, row.url(UNKNOWN), authHeaders(owner), row.body?.(UNKNOWN));
      assert.deepEqual([res.status, errorCode(res)], row.notFound ?? [404, 'NotFound'], `${key}: ${res.text}`);
    }
  });

  test('a body over 64 KiB is a 413 envelope on every route that takes a body, and nothing is made', async () => {
    const ids = await newAssessment(server.url, owner);
    const withBody = entries.filter(([, r]) => r.body);
    assert.ok(withBody.length >= 4);
    const before = await ownerView(ids);
    const api = apiClient(server.url, owner);
    for (const [key, row] of withBody) {
      const body = row.body!(ids) as Record<string, unknown>;
      const res = await send(key, row.url(ids), authHeaders(owner), { ...body, Padding: 'x'.repeat(70 * 1024) });
      assert.deepEqual([res.status, errorCode(res)], [413, 'PayloadTooLarge'], key);
      if (key === 'POST /api/anonymous/candidate') {
        const path = `/api/anonymous/candidate/${encodeURIComponent(String(body.ExternalId))}`;
        assert.equal((await api.get(path)).status, 404, 'no candidate was made');
        assert.equal((await send(key, row.url(ids), authHeaders(owner), body)).status, 201, 'the same body within the limit makes one');
        assert.equal((await api.get(path)).status, 200);
      }
    }
    assert.deepEqual(await ownerView(ids), before, 'the owner sees no new assessment, webhook or mail');
  });
});
