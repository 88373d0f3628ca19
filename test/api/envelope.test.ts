import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { authHeaders, candidate, errorCode, request } from '../helpers/http.js';

suiteOnEachDatabase('every error is in the envelope', {}, ({ server, creds }) => {
  const endpoints = ['/api/anonymous/candidate', '/api/anonymous/assessment'];

  test('404 for unknown routes and methods', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/api/anonymous/candidate'],
      ['DELETE', '/api/anonymous/assessment'],
      ['POST', '/api/anonymous/candidates'],
    ] as const) {
      const res = await request(server.url + path, { method, headers: authHeaders(creds) });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(errorCode(res), 'NotFound');
    }
  });

  test('415 when the content type is not application/json, or missing', async () => {
    for (const path of endpoints) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', undefined]) {
        const headers: Record<string, string> = { ...authHeaders(creds) };
        if (type) headers['content-type'] = type;
        const res = await request(server.url + path, { method: 'POST', body: JSON.stringify(candidate()), headers });
        assert.equal(res.status, 415, `${path} ${type}: ${res.text}`);
        assert.equal(errorCode(res), 'UnsupportedMediaType');
      }
    }
  });

  test('application/json with a charset parameter is accepted', async () => {
    const res = await request(server.url + endpoints[0], {
      method: 'POST',
      body: JSON.stringify(candidate()),
      headers: { ...authHeaders(creds), 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(res.status, 201, res.text);
  });

  test('400 InvalidJson for malformed, truncated and empty JSON, and for prototype poisoning', async () => {
    for (const path of endpoints) {
      for (const body of ['{', '{"ExternalId": "x",}', "{'a':1}", '', '{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {"x": 1}}}']) {
        const res = await request(server.url + path, { method: 'POST', body, headers: { ...authHeaders(creds), 'content-type': 'application/json' } });
        assert.equal(res.status, 400, `${path} ${body}: ${res.text}`);
        assert.equal(errorCode(res), 'InvalidJson');
      }
    }
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });

  test('413 for bodies over 64 KiB; 64 KiB exactly is read', async () => {
    const big = JSON.stringify({ ...candidate(), Padding: 'x'.repeat(70_000) });
    const res = await request(server.url + endpoints[0], { method: 'POST', body: big, headers: { ...authHeaders(creds), 'content-type': 'application/json' } });
    assert.equal(res.status, 413);
    assert.equal(errorCode(res), 'PayloadTooLarge');

    const base = JSON.stringify({ ...candidate(), Padding: '' });
    const exact = base.replace('"Padding":""', `"Padding":"${'x'.repeat(64 * 1024 - base.length)}"`);
    assert.equal(Buffer.byteLength(exact), 64 * 1024);
    const ok = await request(server.url + endpoints[0], {
      method: 'POST',
      body: exact,
      headers: { ...authHeaders(creds), 'content-type': 'application/json' },
    });
    assert.equal(ok.status, 201, ok.text);
  });

  test('401s are in the envelope and come before body problems', async () => {
    const res = await request(server.url + endpoints[0], { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 401);
    assert.equal(errorCode(res), 'InvalidApiKey');
  });

  test('no stack trace or internal detail in any error', async () => {
    const replies = [
      await request(server.url + endpoints[0], { method: 'POST', body: '{"a":', headers: { ...authHeaders(creds), 'content-type': 'application/json' } }),
      await request(server.url + endpoints[1], { body: { ExternalId: 'x', AssessmentType: 'zero' }, headers: authHeaders(creds) }),
      await request(server.url + '/nope'),
    ];
    for (const res of replies) {
      errorCode(res);
      assert.doesNotMatch(res.text, /\bat [\w.<>]+ \(|node_modules|\/src\/|\/dist\/|FST_|SQLITE|stack/i);
    }
  });
});
