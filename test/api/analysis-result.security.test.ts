import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { renderCache } from '../../src/reports/render-cache.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, errorCode, type Credentials } from '../helpers/http.js';

suiteOnEachDatabase('results stay within their tenant', {}, ({ db, server, creds: owner }) => {
  let other: Credentials;
  before(async () => {
    other = await server.tenant();
  });

  test("another tenant's token is a 404, exactly like an unknown one, finished or not", async () => {
    const open = await newAssessment(server.url, owner);
    const done = await newAssessment(server.url, owner);
    await completeViaForms(new FormClient(server.url), done.id);
    const stranger = apiClient(server.url, other);
    const unknown = await stranger.get('/api/candidateanalysisresult/AAAAAAAAAAAAAAAAAAAAAAAA/en-GB');
    for (const id of [open.id, done.id]) {
      const res = await stranger.get(`/api/candidateanalysisresult/${id}/en-GB`);
      assert.equal(res.status, 404);
      assert.equal(errorCode(res), 'NotFound');
      assert.deepEqual(res.body, unknown.body, 'nothing tells it apart from a token that does not exist');
    }
    assert.equal((await apiClient(server.url, owner).get(`/api/candidateanalysisresult/${done.id}/en-GB`)).body.Done, true);
  });

  test(`results the owner has already read${db === 'sqlite' ? ' (their summary and body kept)' : ''} are still a 404 to another tenant`, async () => {
    const done = await newAssessment(server.url, owner);
    await completeViaForms(new FormClient(server.url), done.id);
    const path = `/api/candidateanalysisresult/${done.id}/en-GB`;
    const kept = renderCache(server.running.deps.store).size;
    for (let i = 0; i < 2; i++) assert.equal((await apiClient(server.url, owner).get(path)).body.Done, true);
    // On SQLite the stranger's request meets the kept summary and body: the check that refuses it is the kept path's own.
    if (db === 'sqlite') assert.equal(renderCache(server.running.deps.store).size, kept + 2, 'the summary and the body are kept');
    const unknown = await apiClient(server.url, other).get('/api/candidateanalysisresult/AAAAAAAAAAAAAAAAAAAAAAAA/en-GB');
    const res = await apiClient(server.url, other).get(path);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, unknown.body);
  });
});
