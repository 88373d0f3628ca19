import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { request } from '../helpers/http.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

suiteOnEachDatabase('the front door and paths no route has', { on: 'first', tenant: false }, ({ server }) => {
  let tenantName: string;
  before(async () => {
    tenantName = (await server.tenant()).tenant;
  });

  test('GET / answers an API client with JSON about the service', async () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await request(`${server.url}/`, accept ? { headers: { accept } } : {});
      assert.equal(res.status, 200, String(accept));
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      // The instruments and description are checked against the catalogue in front-door-catalogue.
      const { instruments, description, ...rest } = res.body;
      assert.ok(Array.isArray(instruments) && typeof description === 'string');
      assert.deepEqual(rest, { name: 'Assay', documentation: '/docs', openapi: '/openapi.json', health: '/healthz' });
    }
  });

  test('GET / answers a browser with a page: what this is, links to the docs and health, no tenant data, a strict CSP', async () => {
    const res = await request(`${server.url}/`, { headers: { accept: BROWSER } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    for (const href of ['/docs', '/openapi.json', '/healthz']) assert.ok(res.text.includes(`href="${href}"`), href);
    assert.ok(!res.text.includes(tenantName));
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const dutch = await request(`${server.url}/?lang=nl`, { headers: { accept: BROWSER } });
    assert.match(dutch.text, /<html lang="nl">/);
    assert.match(dutch.text, /Koppelt u een sollicitatiesysteem/);
  });

  test('an unknown path is the HTML 404 page for a browser and the JSON envelope for anyone else; under /api always JSON', async () => {
    const page = await request(`${server.url}/careers/apply`, { headers: { accept: BROWSER } });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /<h1>Page not found<\/h1>/);
    const json = await request(`${server.url}/careers/apply`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 404);
    assert.deepEqual(json.body, { error: { code: 'NotFound', message: 'No route for GET /careers/apply', innererror: {} } });
    const api = await request(`${server.url}/api/nothing-here`, { headers: { accept: BROWSER } });
    assert.equal(api.status, 404);
    assert.equal(api.body.error.code, 'NotFound');
    const refused = await request(`${server.url}/careers/apply`, { headers: { accept: 'text/html;q=0, application/json' } });
    assert.equal(refused.body.error.code, 'NotFound', 'q=0 means not HTML');
  });

  test("the 404 page's language link stays on this site whatever the request line's path", async () => {
    // Sent as written: fetch would resolve an absolute-form target, and browsers read `\` as `/`.
    const languageLink = (path: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(server.url);
        const req = httpRequest({ hostname, port, path, headers: { accept: BROWSER }, timeout: 10_000 }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () =>
            res.statusCode === 404
              ? resolve(/class="lang-switch" href="([^"]*)"/.exec(body)?.[1] ?? 'no link')
              : reject(new Error(`${path}: ${res.statusCode}`)),
          );
        });
        req
          .on('timeout', () => req.destroy(new Error(`${path}: no answer`)))
          .on('error', reject)
          .end();
      });
    assert.equal(await languageLink('//evil.example/login'), '/evil.example/login?lang=nl');
    assert.equal(await languageLink('/\\evil.example/login'), '/evil.example/login?lang=nl');
    assert.equal(await languageLink('/\\/evil.example'), '/evil.example?lang=nl');
    assert.equal(await languageLink('http://evil.example/login'), '/?lang=nl');
    assert.equal(await languageLink('/careers/apply'), '/careers/apply?lang=nl');
  });
});
