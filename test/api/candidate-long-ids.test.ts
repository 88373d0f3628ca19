import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { LIMITS } from '../../src/schemas/fields.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, authHeaders, candidate, errorCode, request, uniqueId } from '../helpers/http.js';

/** Every UTF-8 byte as %XX, even where a client need not: the longest path an id can take. */
function percentEncodeAll(id: string): string {
  return [...Buffer.from(id, 'utf8')].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
}

/** `prefix` padded with `fill` to exactly `length` characters as create counts them (code points). */
function idOf(prefix: string, fill: string, length: number): string {
  return prefix + fill.repeat(length - [...prefix].length);
}

suiteOnEachDatabase('ExternalIds at the longest create accepts', {}, ({ server, creds }) => {
  const ids = () =>
    [
      ['ASCII', idOf(uniqueId('long'), 'x', LIMITS.externalId), encodeURIComponent],
      // Four UTF-8 bytes a character, and characters a path must encode: 12 URL characters each.
      ['four-byte and reserved characters, every byte encoded', idOf(uniqueId('emoji') + ' /?#%', '😀', LIMITS.externalId), percentEncodeAll],
      ['two-byte characters', idOf(uniqueId('accent'), 'é', LIMITS.externalId), encodeURIComponent],
    ] as const;

  test('a candidate is created, read, erased and then gone, whatever the length and characters of its ExternalId', async () => {
    const api = apiClient(server.url, creds);
    for (const [kind, id, encode] of ids()) {
      assert.equal([...id].length, LIMITS.externalId, kind);
      const created = await api.createCandidate(candidate({ ExternalId: id, FirstName: 'Lange' }));
      assert.equal(created.status, 201, `${kind}: ${created.text.slice(0, 200)}`);
      const assessment = await api.createAssessment({ ExternalId: id, AssessmentType: 0 });
      assert.equal(assessment.status, 201, kind);

      const path = `/api/anonymous/candidate/${encode(id)}`;
      const read = await api.get(path);
      assert.equal(read.status, 200, `${kind}: GET ${read.text.slice(0, 200)}`);
      assert.equal(read.body.Data.Candidate.ExternalId, id, kind);
      assert.equal(read.body.Data.Candidate.FirstName, 'Lange', kind);
      assert.deepEqual(
        read.body.Data.Assessments.map((a: { AnalysisId: string }) => a.AnalysisId),
        [assessment.body.Data.AnalysisId],
        kind,
      );

      const erased = await request(server.url + path, { method: 'DELETE', headers: authHeaders(creds) });
      assert.equal(erased.status, 200, `${kind}: DELETE ${erased.text.slice(0, 200)}`);
      assert.deepEqual(erased.body.Data, { ExternalId: id, ErasedAssessments: 1, ErasedAnswers: 0 }, kind);

      const gone = await api.get(path);
      assert.equal(gone.status, 404, kind);
      assert.equal(errorCode(gone), 'NotFound', kind);
    }
  });

  test('one character longer than create allows is refused at create with the 400 envelope', async () => {
    const api = apiClient(server.url, creds);
    for (const id of [idOf(uniqueId('over'), 'x', LIMITS.externalId + 1), idOf(uniqueId('over'), '😀', LIMITS.externalId + 1)]) {
      const res = await api.createCandidate(candidate({ ExternalId: id }));
      assert.equal(res.status, 400);
      assert.equal(errorCode(res), 'ValidationError');
      assert.deepEqual([res.body.error.innererror.field, res.body.error.innererror.rule], ['ExternalId', 'maxLength']);
    }
  });

  test('other params stay bounded: an over-long AnalysisId by its schema, a portal token by the old router bound', async () => {
    const long = await apiClient(server.url, creds).get(`/api/anonymous/assessment/${'A'.repeat(65)}`);
    assert.deepEqual([long.status, errorCode(long), long.body.error.innererror.field], [400, 'ValidationError', 'AnalysisId']);
    const portal = await request(`${server.url}/anonymous/analyse/start/${'A'.repeat(101)}`);
    assert.deepEqual([portal.status, errorCode(portal), portal.body.error.innererror.rule], [400, 'ValidationError', 'FST_ERR_MAX_PARAM_LENGTH']);
    assert.equal((await request(`${server.url}/anonymous/analyse/start/${'A'.repeat(100)}`)).status, 404, 'at the bound: looked up');
  });
});
