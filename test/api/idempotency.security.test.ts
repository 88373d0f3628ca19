import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Store } from '../../src/db/database.js';
import { provisionKey, type IssuedCredentials } from '../../src/tenancy/provision.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode, uniqueId } from '../helpers/http.js';

const ASSESSMENT = '/api/anonymous/assessment';
const CANDIDATE = '/api/anonymous/candidate';

suiteOnEachDatabase('Idempotency-Key: scoped to the API key, and erased with the candidate', {}, ({ server, creds }) => {
  let store: Store;
  let secondKey: IssuedCredentials;
  let otherTenant: IssuedCredentials;
  before(async () => {
    store = server.running.deps.store;
    secondKey = { ...creds, ...(await provisionKey(store, creds.tenantId, creds.portalDomain)) };
    otherTenant = await server.tenant();
  });

  const post = (who: IssuedCredentials, path: string, body: unknown, key: string) => apiClient(server.url, who).post(path, body, { 'idempotency-key': key });
  const assessmentsOf = async (externalId: string) =>
    (await store.db.selectFrom('assessments').select('analysis_id').where('external_id', '=', externalId).execute()).length;
  const keyRowsOf = async (externalId: string) =>
    (await store.db.selectFrom('idempotency_keys').select('key_hash').where('external_id', '=', externalId).execute()).length;

  test('two API keys of one tenant use one key independently: each creates its own and replays its own', async () => {
    const body = candidate();
    assert.equal((await apiClient(server.url, creds).createCandidate(body)).status, 201);
    const request = { ExternalId: body.ExternalId, AssessmentType: 0 };
    const key = uniqueId('shared');
    const a = await post(creds, ASSESSMENT, request, key);
    const b = await post(secondKey, ASSESSMENT, request, key);
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);
    assert.equal(b.headers.get('idempotent-replayed'), null);
    assert.notEqual(a.body.Data.AnalysisId, b.body.Data.AnalysisId);
    assert.equal(await assessmentsOf(String(body.ExternalId)), 2);
    assert.equal((await post(creds, ASSESSMENT, request, key)).text, a.text);
    assert.equal((await post(secondKey, ASSESSMENT, request, key)).text, b.text);
    assert.equal(await assessmentsOf(String(body.ExternalId)), 2);
  });

  test("another tenant's request with your key and your very body gets its own answer, never your response, and each replays its own", async () => {
    const body = candidate();
    assert.equal((await apiClient(server.url, creds).createCandidate(body)).status, 201);
    const request = { ExternalId: body.ExternalId, AssessmentType: 0 };
    const key = uniqueId('shared');
    assert.equal((await post(creds, ASSESSMENT, request, key)).status, 201);
    // The candidate is not theirs: NoCandidateFound, not your AnalysisId, and not 422.
    const theirs = await post(otherTenant, ASSESSMENT, request, key);
    assert.equal(theirs.status, 400, theirs.text);
    assert.equal(errorCode(theirs), 'NoCandidateFound');
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    // Each replays its own answer.
    assert.equal((await post(otherTenant, ASSESSMENT, request, key)).text, theirs.text);
    assert.equal((await post(creds, ASSESSMENT, request, key)).status, 201);
    assert.equal(await assessmentsOf(String(body.ExternalId)), 1);
  });

  test('neither the key nor the body is stored: only hashes, and a response without the names', async () => {
    const body = candidate({ FirstName: 'Grace', LastName: 'Hopperstein', Email: 'grace.hopperstein@example.com' });
    const key = `candidate ${String(body.Email)}`;
    assert.equal((await post(creds, CANDIDATE, body, key)).status, 201);
    const rows = await store.db.selectFrom('idempotency_keys').selectAll().where('external_id', '=', String(body.ExternalId)).execute();
    assert.equal(rows.length, 1);
    const stored = JSON.stringify(rows[0]);
    for (const secret of [key, 'Grace', 'Hopperstein', 'grace.hopperstein']) assert.ok(!stored.includes(secret), `${secret} in ${stored}`);
    assert.match(rows[0]!.key_hash, /^[0-9a-f]{64}$/);
    assert.match(rows[0]!.request_hash, /^[0-9a-f]{64}$/);
  });

  test("erasing a candidate removes the responses kept for their creates' keys, and no one else's; the same request then runs anew", async () => {
    const erased = candidate();
    const kept = candidate();
    const keys = { candidate: uniqueId('erase'), assessment: uniqueId('erase'), kept: uniqueId('keep') };
    assert.equal((await post(creds, CANDIDATE, erased, keys.candidate)).status, 201);
    assert.equal((await post(creds, ASSESSMENT, { ExternalId: erased.ExternalId, AssessmentType: 0 }, keys.assessment)).status, 201);
    assert.equal((await post(creds, CANDIDATE, kept, keys.kept)).status, 201);
    assert.equal(await keyRowsOf(String(erased.ExternalId)), 2);
    assert.equal(await keyRowsOf(String(kept.ExternalId)), 1);

    const del = await apiClient(server.url, creds).delete(`${CANDIDATE}/${String(erased.ExternalId)}`);
    assert.ok(del.status < 300, del.text);
    assert.equal(await keyRowsOf(String(erased.ExternalId)), 0);
    assert.equal(await keyRowsOf(String(kept.ExternalId)), 1);
    // Nothing is replayed of the erased candidate: the repeat is a new create of them.
    const again = await post(creds, CANDIDATE, erased, keys.candidate);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), null);
    assert.equal((await post(creds, CANDIDATE, kept, keys.kept)).headers.get('idempotent-replayed'), 'true');
  });
});
