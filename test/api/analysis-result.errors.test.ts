import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, errorCode, request } from '../helpers/http.js';

suiteOnEachDatabase('the results endpoint refuses what it cannot answer', {}, ({ server, creds }) => {
  test('an unsupported culture is a 400 in the envelope that lists the supported ones', async () => {
    const a = await newAssessment(server.url, creds);
    for (const culture of ['fr-FR', 'nl', 'en', 'nl_NL', 'de-DE']) {
      const res = await a.api.get(`/api/candidateanalysisresult/${a.id}/${culture}`);
      assert.equal(res.status, 400, culture);
      assert.equal(errorCode(res), 'ValidationError');
      assert.equal(res.body.error.innererror.field, 'culture');
      assert.deepEqual(res.body.error.innererror.supported, ['nl-NL', 'en-GB', 'en-US']);
      assert.match(res.body.error.message, /nl-NL, en-GB, en-US/);
    }
  });

  test('an unknown token is a 404 in the envelope', async () => {
    const api = apiClient(server.url, creds);
    for (const token of ['AAAAAAAAAAAAAAAAAAAAAAAA', 'x']) {
      const res = await api.get(`/api/candidateanalysisresult/${token}/nl-NL`);
      assert.equal(res.status, 404);
      assert.equal(errorCode(res), 'NotFound');
    }
    const tooLong = await api.get(`/api/candidateanalysisresult/${'A'.repeat(65)}/nl-NL`);
    assert.equal(tooLong.status, 400);
    assert.equal(errorCode(tooLong), 'ValidationError');
  });

  test('without credentials it is a 401, as every API route', async () => {
    const a = await newAssessment(server.url, creds);
    const res = await request(`${server.url}/api/candidateanalysisresult/${a.id}/nl-NL`);
    assert.equal(res.status, 401);
    assert.equal(errorCode(res), 'InvalidApiKey');
  });
});
