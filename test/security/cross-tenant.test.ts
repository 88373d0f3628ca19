import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { authHeaders, candidate, request, type Credentials } from '../helpers/http.js';

interface Recorded {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

/**
 * RESTler-style: record everything tenant A does, replay each request with tenant B's
 * credentials, and check that nothing of A's could be read or written.
 */
suiteOnEachDatabase('cross-tenant replay', {}, ({ server, creds: a }) => {
  let b: Credentials;
  before(async () => {
    b = await server.tenant();
  });

  test("tenant B can neither read nor write anything of tenant A's", async () => {
    const log: Recorded[] = [];
    const asA = async (r: Recorded) => {
      log.push(r);
      return request(server.url + r.path, { method: r.method, headers: authHeaders(a), ...(r.body ? { body: r.body } : {}) });
    };
    const body = candidate({ NeedsToUpdateData: true });
    assert.equal((await asA({ method: 'POST', path: '/api/anonymous/candidate', body })).status, 201);
    const created = await asA({
      method: 'POST',
      path: '/api/anonymous/assessment',
      body: {
        ExternalId: body.ExternalId,
        AssessmentType: 1,
        ReturnUrl: 'https://a.example/r',
        WebhookUrl: 'https://a.example/h',
        WebhookUsername: 'a',
        WebhookPassword: 'pa',
      },
    });
    assert.equal(created.status, 201);
    const id = created.body.Data.AnalysisId as string;
    assert.equal((await asA({ method: 'GET', path: `/api/anonymous/assessment/${id}` })).status, 200);

    const store = server.running.deps.store;
    const snapshot = async () => ({
      candidate: await store.db.selectFrom('candidates').selectAll().where('external_id', '=', String(body.ExternalId)).execute(),
      assessments: await store.db.selectFrom('assessments').selectAll().where('external_id', '=', String(body.ExternalId)).execute(),
    });
    const before = await snapshot();

    for (const r of log) {
      const res = await request(server.url + r.path, { method: r.method, headers: authHeaders(b), ...(r.body ? { body: r.body } : {}) });
      assert.ok([400, 404].includes(res.status), `${r.method} ${r.path} as B: ${res.status} ${res.text}`);
      assert.doesNotMatch(res.text, new RegExp(`${id}|ada@example\\.com|Lovelace|a\\.example`), `${r.method} ${r.path} leaked A's data`);
      if (r.path === '/api/anonymous/candidate') assert.equal(res.body.error.code, 'ExternalIdAlreadyExists');
      if (r.path === '/api/anonymous/assessment') assert.equal(res.body.error.code, 'NoCandidateFound');
      if (r.method === 'GET') assert.equal(res.body.error.code, 'NotFound');
    }
    assert.deepEqual(await snapshot(), before, "A's rows are unchanged");
    const ownLookup = await request(`${server.url}/api/anonymous/assessment/${id}`, { headers: authHeaders(b) });
    const unknownLookup = await request(`${server.url}/api/anonymous/assessment/${id.replace(/.$/, id.endsWith('A') ? 'B' : 'A')}`, {
      headers: authHeaders(b),
    });
    assert.deepEqual(ownLookup.body, unknownLookup.body, "another tenant's assessment looks exactly like a missing one");
  });
});
