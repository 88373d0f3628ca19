import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { findCandidate } from '../../src/assessments/candidates-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, uniqueId } from '../helpers/http.js';

suiteOnEachDatabase('POST /api/anonymous/candidate, happy paths', { tenant: false }, ({ server }) => {
  let api: ReturnType<typeof apiClient>;
  before(async () => {
    api = apiClient(server.url, await server.tenant());
  });

  test('201 with the spec envelope, and the row is stored with defaults', async () => {
    const body = candidate();
    const res = await api.createCandidate(body);
    assert.equal(res.status, 201);
    assert.deepEqual(res.body, { StatusCode: 201, Message: null, Data: { ExternalId: body.ExternalId } });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const row = await findCandidate(server.running.deps.store, String(body.ExternalId));
    assert.equal(row?.email, 'ada@example.com');
    assert.equal(row?.gender, 0);
    assert.equal(row?.needs_to_update_data, 0);
    assert.equal(row?.preposition, '');
  });

  test('Gender and NeedsToUpdateData are stored when given', async () => {
    const body = candidate({ Gender: 3, NeedsToUpdateData: true, Preposition: 'van der' });
    assert.equal((await api.createCandidate(body)).status, 201);
    const row = await findCandidate(server.running.deps.store, String(body.ExternalId));
    assert.equal(row?.gender, 3);
    assert.equal(row?.needs_to_update_data, 1);
    assert.equal(row?.preposition, 'van der');
  });

  test('lower boundaries pass: 5-character Email, 2-character names, Gender 0..3', async () => {
    for (const gender of [0, 1, 2, 3]) {
      const res = await api.createCandidate(candidate({ Email: 'a@b.c', FirstName: 'Al', LastName: 'Bo', Gender: gender }));
      assert.equal(res.status, 201, res.text);
    }
  });

  test('upper boundaries pass: ExternalId 255, names 100, Email 254', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.nl`;
    assert.equal(email.length, 254);
    const externalId = uniqueId().padEnd(255, 'x');
    const res = await api.createCandidate(candidate({ ExternalId: externalId, FirstName: 'F'.repeat(100), LastName: 'L'.repeat(100), Email: email }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.Data.ExternalId, externalId);
  });

  test('property names match case-insensitively; unknown properties are ignored', async () => {
    const id = uniqueId();
    const res = await api.createCandidate({
      externalId: id,
      email: 'grace@example.com',
      FIRSTNAME: 'Grace',
      lastname: 'Hopper',
      preposition: '',
      gender: 2,
      needsToUpdateData: false,
      Nickname: 'Amazing Grace',
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.Data, { ExternalId: id });
    const row = await findCandidate(server.running.deps.store, id);
    assert.equal(row?.first_name, 'Grace');
    assert.equal(row?.gender, 2);
  });

  test('non-ASCII names and ExternalIds round-trip', async () => {
    const id = `${uniqueId()}-ñ-日本-😀`;
    const res = await api.createCandidate(candidate({ ExternalId: id, FirstName: 'Zoë', LastName: "O'Connor-Ĳsselmeer", Preposition: "d'" }));
    assert.equal(res.status, 201, res.text);
    const row = await findCandidate(server.running.deps.store, id);
    assert.equal(row?.last_name, "O'Connor-Ĳsselmeer");
  });

  test('an X-Request-Id is returned, and a sane incoming one is echoed', async () => {
    const res = await api.post('/api/anonymous/candidate', candidate(), { 'x-request-id': 'trace-123' });
    assert.equal(res.headers.get('x-request-id'), 'trace-123');
    const other = await api.createCandidate(candidate());
    assert.match(other.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});
