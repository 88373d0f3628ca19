import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { authHeaders, errorCode, request } from '../helpers/http.js';

/** Every API route with an id in its path, as method and path. */
const ROUTES: Array<[method: 'GET' | 'POST' | 'DELETE', path: (id: string) => string]> = [
  ['GET', (id) => `/api/anonymous/assessment/${id}`],
  ['DELETE', (id) => `/api/anonymous/assessment/${id}`],
  ['GET', (id) => `/api/anonymous/assessment/${id}/report`],
  ['GET', (id) => `/api/anonymous/assessment/${id}/webhooks`],
  ['POST', (id) => `/api/anonymous/assessment/${id}/webhook/redeliver`],
  ['DELETE', (id) => `/api/anonymous/assessment/${id}/report-links`],
  ['GET', (id) => `/api/candidateanalysisresult/${id}/en-GB`],
  ['GET', (id) => `/api/anonymous/candidate/${id}`],
  ['DELETE', (id) => `/api/anonymous/candidate/${id}`],
];

/** Ids no store can hold or no route should pass on: NUL (PostgreSQL refuses it in text), other controls, broken UTF-8, a lone surrogate, too long. */
const ODD = ['%00', 'abc%00def', '%0A', '%ff%fe', '%ED%A0%80', 'x'.repeat(300)];

suiteOnEachDatabase('odd ids in API paths', {}, ({ server, creds }) => {
  test('an id with a NUL, a control character, broken UTF-8 or too many characters gets a 400 or 404 envelope on every route, never a 5xx', async () => {
    const send = (method: string, url: string) => request(server.url + url, { method, headers: authHeaders(creds) });
    for (const [method, path] of ROUTES) {
      for (const id of ODD) {
        const url = path(id);
        const res = await send(method, url);
        assert.ok(res.status === 400 || res.status === 404, `${method} ${url.slice(0, 80)}: ${res.status} ${res.text.slice(0, 120)}`);
        errorCode(res);
      }
    }
    const nul = await send('GET', '/api/anonymous/assessment/%00/webhooks');
    assert.deepEqual([nul.status, errorCode(nul), nul.body.error.innererror.field], [400, 'ValidationError', 'AnalysisId']);
  });
});
