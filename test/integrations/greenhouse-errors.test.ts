import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { docsSendTest, greenhouseClient, greenhouseKeyFor } from '../helpers/greenhouse.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { basic, type Reply } from '../helpers/http.js';

/** Greenhouse's error shape: one key, `errors`, a non-empty list of message strings. */
function assertGreenhouseError(res: Pick<Reply, 'status' | 'body' | 'text'>, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.text.slice(0, 200)}`);
  assert.deepEqual(Object.keys(res.body ?? {}), ['errors'], `${what}: ${res.text.slice(0, 200)}`);
  assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0, what);
  for (const m of res.body.errors) assert.equal(typeof m, 'string', what);
}

/** A request sent exactly as written (fetch would normalise `//` and reject bad escapes), with a deadline. */
function raw(url: string, path: string, method: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode!, headers: new Headers(res.headers as Record<string, string>), body: parsed, text });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer`))).on('error', reject);
    req.end(body);
  });
}

suiteOnEachDatabase("Greenhouse door: every error under /integrations/greenhouse/ in Greenhouse's shape", { smtp: true }, (ctx) => {
  let key: string;
  let gh: ReturnType<typeof greenhouseClient>;
  const send = (path: string, method: string, extra: Record<string, string> = {}, body?: string) =>
    raw(ctx.server.url, `/integrations/greenhouse${path}`, method, { authorization: basic(key, ''), ...extra }, body);
  before(async () => {
    key = await greenhouseKeyFor(ctx.server, ctx.creds);
    gh = greenhouseClient(ctx.server.url, key);
  });

  test('wrong methods on the four calls are 405 with Allow; unknown paths and double slashes are 404', async () => {
    for (const [path, method, allow] of [
      ['/list_tests', 'POST', 'GET, HEAD'],
      ['/test_status', 'DELETE', 'GET, HEAD'],
      ['/send_test', 'GET', 'POST'],
      ['/response_error', 'PUT', 'POST'],
    ] as const) {
      const res = await send(path, method);
      assertGreenhouseError(res, 405, `${method} ${path}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
    }
    for (const [path, method] of [
      ['//list_tests', 'GET'],
      ['/list_tests/', 'GET'],
      ['/nothing', 'GET'],
      ['/', 'POST'],
      ['', 'GET'],
      ['/%2e%2e/api/anonymous/assessmenttypes', 'GET'],
    ] as const) {
      assertGreenhouseError(await send(path, method), 404, `${method} ${path}`);
    }
    // Positive control: the same client's right method is served.
    assert.equal((await send('/list_tests', 'GET')).status, 200);
  });

  test('a path the router cannot decode is 400 in the errors shape', async () => {
    assertGreenhouseError(await send('/test_status%E0%A4%A', 'GET'), 400, 'a bad percent escape');
  });

  test('bad bodies: invalid JSON, an empty body, a non-object and a missing field are 400; another media type 415; over 64 KiB 413', async () => {
    const json = { 'content-type': 'application/json' };
    assertGreenhouseError(await send('/send_test', 'POST', json, '{"partner_test_id":'), 400, 'invalid JSON');
    assertGreenhouseError(await send('/send_test', 'POST', json, ''), 400, 'an empty body');
    assertGreenhouseError(await send('/send_test', 'POST', json, '[1,2]'), 400, 'an array');
    assertGreenhouseError(await send('/response_error', 'POST', json, '{"errors":[]}'), 400, 'no api_call');
    const order = JSON.stringify(docsSendTest('https://greenhouse.example/take_home_tests/8101', { person: '8101' }));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      assertGreenhouseError(await send('/send_test', 'POST', { 'content-type': type }, order), 415, type);
    }
    assertGreenhouseError(await gh('/send_test', { method: 'POST', body: { ...JSON.parse(order), sent_by: 'x'.repeat(70 * 1024) } }), 413, 'over 64 KiB');
    // Positive control: the same order as JSON is taken.
    assert.equal((await send('/send_test', 'POST', json, order)).status, 200);
  });

  test('a missing query parameter is 400; wrong keys are 401, then 429 with Retry-After', async () => {
    assertGreenhouseError(await gh('/test_status'), 400, 'no partner_interview_id');
    const from = '127.0.0.61';
    const wrong = greenhouseClient(ctx.server.url, 'gh_wrong');
    assertGreenhouseError(await wrong('/nothing', { from }), 401, 'a wrong key on an unknown path');
    let last: Reply | undefined;
    for (let i = 0; i <= ctx.server.running.deps.config.auth.failuresPerMinute; i++) last = await wrong('/list_tests', { from });
    assertGreenhouseError(last!, 429, 'past the failure limit');
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
  });
});
