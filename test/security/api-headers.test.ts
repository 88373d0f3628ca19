import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { authHeaders, candidate } from '../helpers/http.js';

/** What every API response carries, written out here rather than read from src/. */
const API_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
// Headers that mean something only to an HTML page: the API leaves them out (every byte is paid per response).
const PAGE_ONLY = ['x-xss-protection', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'origin-agent-cluster'];

suiteOnEachDatabase("the API's security headers", {}, ({ server, creds }) => {
  test('on success, validation error, authentication error and unknown route alike', async () => {
    const a = await newAssessment(server.url, creds);
    const json = { ...authHeaders(creds), 'content-type': 'application/json' };
    const responses = {
      'GET 200': await fetch(`${server.url}/api/anonymous/assessment/${a.id}`, { headers: authHeaders(creds) }),
      'POST 201': await fetch(`${server.url}/api/anonymous/candidate`, { method: 'POST', headers: json, body: JSON.stringify(candidate()) }),
      'POST 400': await fetch(`${server.url}/api/anonymous/candidate`, { method: 'POST', headers: json, body: '{}' }),
      'GET 401': await fetch(`${server.url}/api/anonymous/assessment/${a.id}`),
      'GET 404': await fetch(`${server.url}/api/no-such-route`, { headers: authHeaders(creds) }),
    };
    for (const [what, res] of Object.entries(responses)) {
      await res.arrayBuffer();
      assert.equal(String(res.status), what.split(' ')[1], what);
      for (const [name, value] of Object.entries(API_HEADERS)) assert.equal(res.headers.get(name), value, `${what}: ${name}`);
      for (const name of PAGE_ONLY) assert.equal(res.headers.get(name), null, `${what}: no ${name}`);
    }
  });

  test('a portal page gets the page set instead: the split is by path, not one set for all', async () => {
    const res = await fetch(`${server.url}/`);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('x-dns-prefetch-control'), 'off');
    assert.match(res.headers.get('content-security-policy') ?? '', /form-action 'none'/);
  });
});
