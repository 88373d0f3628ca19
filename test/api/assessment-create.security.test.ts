import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode } from '../helpers/http.js';

suiteOnEachDatabase('POST /api/anonymous/assessment, tenant isolation', { tenant: false }, ({ server }) => {
  test("another tenant's ExternalId gets NoCandidateFound, exactly like an unknown one", async () => {
    const a = apiClient(server.url, await server.tenant());
    const b = apiClient(server.url, await server.tenant());
    const body = candidate();
    assert.equal((await a.createCandidate(body)).status, 201);
    const res = await b.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0 });
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'NoCandidateFound');
    const unknown = await b.createAssessment({ ExternalId: `${String(body.ExternalId)}-nope`, AssessmentType: 0 });
    assert.deepEqual(res.body, unknown.body);
    assert.equal((await a.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0 })).status, 201);
  });

  test('requests that arrive together (one batch) each get their own answer', async () => {
    const a = apiClient(server.url, await server.tenant());
    const b = apiClient(server.url, await server.tenant());
    const own = candidate();
    const theirs = candidate();
    assert.equal((await a.createCandidate(own)).status, 201);
    assert.equal((await b.createCandidate(theirs)).status, 201);
    const asks = Array.from({ length: 60 }, (_, i) => [own.ExternalId, theirs.ExternalId, `${String(own.ExternalId)}-none`][i % 3]);
    const replies = await Promise.all(asks.map((ExternalId, i) => a.createAssessment({ ExternalId, AssessmentType: i % 2 })));
    replies.forEach((r, i) => {
      if (i % 3 === 0) assert.equal(r.status, 201, r.text);
      else assert.equal(errorCode(r), 'NoCandidateFound', r.text);
    });
    const ids = replies.filter((r) => r.status === 201).map((r) => r.body.Data.AnalysisId as string);
    assert.equal(new Set(ids).size, 20);
    // Each stored row is the one its request asked for.
    for (const [i, r] of replies.entries()) {
      if (r.status !== 201) continue;
      const row = await server.running.deps.store.db
        .selectFrom('assessments')
        .selectAll()
        .where('analysis_id', '=', r.body.Data.AnalysisId as string)
        .executeTakeFirstOrThrow();
      assert.equal(row.external_id, own.ExternalId);
      assert.equal(row.assessment_type, i % 2);
    }
  });
});
