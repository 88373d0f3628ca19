import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode, uniqueId } from '../helpers/http.js';

suiteOnEachDatabase('POST /api/anonymous/candidate, uniqueness and races', { tenant: false }, ({ server }) => {
  test('ExternalId is unique across tenants', async () => {
    const a = apiClient(server.url, await server.tenant());
    const b = apiClient(server.url, await server.tenant());
    const body = candidate();
    assert.equal((await a.createCandidate(body)).status, 201);
    const res = await b.createCandidate(body);
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'ExternalIdAlreadyExists');
  });

  test('racing creates of one ExternalId: exactly one 201, the rest ExternalIdAlreadyExists', async () => {
    const tenants = [await server.tenant(), await server.tenant()].map((c) => apiClient(server.url, c));
    for (let round = 0; round < 5; round++) {
      const id = uniqueId('race');
      const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => tenants[i % 2]!.createCandidate(candidate({ ExternalId: id }))));
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
      for (const r of replies.filter((x) => x.status !== 201)) {
        assert.equal(r.status, 400);
        assert.equal(errorCode(r), 'ExternalIdAlreadyExists');
      }
    }
  });

  test('many different creates at once all succeed (group commit keeps each one)', async () => {
    const api = apiClient(server.url, await server.tenant());
    const bodies = Array.from({ length: 200 }, () => candidate());
    const replies = await Promise.all(bodies.map((b) => api.createCandidate(b)));
    assert.deepEqual([...new Set(replies.map((r) => r.status))], [201]);
    const again = await Promise.all(bodies.slice(0, 20).map((b) => api.createCandidate(b)));
    assert.deepEqual([...new Set(again.map((r) => errorCode(r)))], ['ExternalIdAlreadyExists']);
  });
});
