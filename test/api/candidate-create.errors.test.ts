import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { authHeaders, candidate, errorCode, request } from '../helpers/http.js';

const PATH = '/api/anonymous/candidate';

suiteOnEachDatabase(`POST ${PATH}, errors`, {}, ({ server, creds, api }) => {
  async function rejects(body: unknown, field: string, code = 'ValidationError') {
    const res = await request(server.url + PATH, { method: 'POST', body, headers: { ...authHeaders(creds), 'content-type': 'application/json' } });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 120)} -> ${res.text}`);
    assert.equal(errorCode(res), code);
    assert.equal(res.body.error.innererror.field, field);
    assert.match(res.body.error.message, new RegExp(field));
    return res;
  }

  test('ExternalIdAlreadyExists for a second create of one ExternalId', async () => {
    const body = candidate();
    assert.equal((await api.createCandidate(body)).status, 201);
    const res = await api.createCandidate({ ...body, FirstName: 'Someone', Email: 'else@example.com' });
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'ExternalIdAlreadyExists');
    assert.match(res.body.error.message, /already exists/i);
    assert.deepEqual(Object.keys(res.body), ['error']);
  });

  test('Email: 4 characters and bad formats are refused', async () => {
    await rejects(candidate({ Email: 'a@bc' }), 'Email');
    await rejects(candidate({ Email: 'not-an-email' }), 'Email');
    await rejects(candidate({ Email: 'a b@example.com' }), 'Email');
    await rejects(candidate({ Email: `${'a'.repeat(250)}@x.nl` }), 'Email');
  });

  test('names: 1 character and 101 characters are refused', async () => {
    await rejects(candidate({ FirstName: 'A' }), 'FirstName');
    await rejects(candidate({ LastName: 'L' }), 'LastName');
    await rejects(candidate({ FirstName: 'F'.repeat(101) }), 'FirstName');
    await rejects(candidate({ LastName: 'L'.repeat(101) }), 'LastName');
  });

  test('ExternalId: empty and 256 characters are refused', async () => {
    await rejects(candidate({ ExternalId: '' }), 'ExternalId');
    await rejects(candidate({ ExternalId: 'x'.repeat(256) }), 'ExternalId');
  });

  test('Gender: 4, -1, 1.5 and "1" are refused; the message names the values', async () => {
    for (const Gender of [4, -1, 1.5, '1', null, true]) {
      const res = await rejects(candidate({ Gender }), 'Gender');
      if (typeof Gender === 'number' && Number.isInteger(Gender)) assert.match(res.body.error.message, /0 \(unknown\).*3 \(neutral\)/);
    }
  });

  test('NeedsToUpdateData must be a boolean', async () => {
    for (const NeedsToUpdateData of ['true', 1, 0, null]) await rejects(candidate({ NeedsToUpdateData }), 'NeedsToUpdateData');
  });

  test('every required field: missing is refused and named', async () => {
    for (const field of ['ExternalId', 'Email', 'FirstName', 'LastName', 'Preposition']) {
      const body = candidate();
      delete body[field];
      const res = await rejects(body, field);
      assert.match(res.body.error.message, /is required/);
      assert.equal(res.body.error.innererror.rule, 'required');
    }
  });

  test('wrong types are refused with the field named', async () => {
    await rejects(candidate({ ExternalId: 42 }), 'ExternalId');
    await rejects(candidate({ FirstName: ['Ada'] }), 'FirstName');
    await rejects(candidate({ Preposition: null }), 'Preposition');
  });

  test('control characters and unpaired surrogates are refused', async () => {
    await rejects(candidate({ FirstName: 'Ada\u0000' }), 'FirstName');
    await rejects(candidate({ ExternalId: 'a\nb' }), 'ExternalId');
    const raw = JSON.stringify(candidate()).replace('"Ada"', '"Ad\\ud800a"');
    await rejects(raw, 'FirstName');
  });

  test('one property given twice in different casing is refused', async () => {
    const body = { ...candidate(), externalid: 'other' };
    await rejects(body, 'ExternalId');
  });

  test('the body must be a JSON object', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const res = await request(server.url + PATH, { body, headers: { ...authHeaders(creds), 'content-type': 'application/json' } });
      assert.equal(res.status, 400, body);
      assert.equal(errorCode(res), 'ValidationError');
      assert.match(res.body.error.message, /JSON object/);
    }
  });

  test('a failed create stores nothing: the ExternalId is still free', async () => {
    const body = candidate({ Email: 'bad' });
    assert.equal((await api.createCandidate(body)).status, 400);
    assert.equal((await api.createCandidate({ ...body, Email: 'good@example.com' })).status, 201);
  });
});
