import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testDatabases } from '../helpers/databases.js';
import { apiClient, candidate, errorCode } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

for (const db of testDatabases()) {
  describe(`POST /api/anonymous/assessment, tenant isolation [${db}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(db);
    });
    after(() => server.stop());

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
  });
}
