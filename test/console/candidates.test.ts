import assert from 'node:assert/strict';
import { before } from 'node:test';
import { parse } from 'csv-parse/sync';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { plain } from '../helpers/html.js';
import { request } from '../helpers/http.js';
import { redactUrl } from '../../src/http/plugins/logging.js';
import { signedInUser } from './console-helpers.js';

const PASSWORD = 'correct horse battery';

suiteOnEachDatabase('the console candidate list and export over HTTP, by role', { env: { TRUST_PROXY: '127.0.0.1' } }, ({ server, creds, cliEnv }) => {
  const own: string[] = [];
  let stranger: string;
  before(async () => {
    for (const last of ['Ouwens', 'Ozturk']) own.push((await newAssessment(server.url, creds, {}, { FirstName: 'Olga', LastName: last })).externalId);
    const other = await server.tenant('console-list-other');
    stranger = (await newAssessment(server.url, other, {}, { FirstName: 'Vera', LastName: 'Vreemd' })).externalId;
  });

  test("a recruiter sees the tenant's candidates, never another tenant's, and exports them as CSV", async () => {
    const browser = await signedInUser(server.url, cliEnv, creds.tenant, 'rita@example.test', PASSWORD, 'recruiter');
    const home = await browser.get('/console');
    assert.match(home.html, /href="\/console\/candidates"/);
    const list = await browser.get('/console/candidates');
    assert.equal(list.status, 200);
    const text = plain(list.html);
    for (const id of own) assert.ok(text.includes('Olga'), id);
    assert.ok(text.includes('Ouwens') && text.includes('Ozturk'), 'positive control: own rows listed');
    assert.ok(!text.includes('Vreemd'), "another tenant's candidate is not listed");
    assert.match(list.html, /href="\/console\/candidates\/export\.csv/);

    const searched = plain((await browser.get('/console/candidates?q=ozt')).html);
    assert.ok(searched.includes('Ozturk') && !searched.includes('Ouwens'));

    const csv = await browser.get('/console/candidates/export.csv');
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    const rows = parse(csv.html, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(rows.map((r) => r.ExternalId).sort(), [...own].sort());
    assert.ok(!rows.some((r) => r.ExternalId === stranger));

    const audit = await server.running.deps.store.db.selectFrom('console_audit').select(['action', 'tenant_id']).where('action', '=', 'export').execute();
    assert.deepEqual(audit, [{ action: 'export', tenant_id: creds.tenantId }]);
  });

  test('a viewer reads the list but gets 403 for the export, with no export link and no audit row', async () => {
    const browser = await signedInUser(server.url, cliEnv, creds.tenant, 'vic@example.test', PASSWORD, 'viewer');
    const list = await browser.get('/console/candidates');
    assert.equal(list.status, 200);
    assert.ok(plain(list.html).includes('Ozturk'), 'positive control: the viewer reads the list');
    assert.doesNotMatch(list.html, /export\.csv/);
    const before = await server.running.deps.store.db.selectFrom('console_audit').select('id').where('action', '=', 'export').execute();
    const csv = await browser.get('/console/candidates/export.csv');
    assert.equal(csv.status, 403);
    assert.doesNotMatch(csv.html, /Ozturk/);
    const after = await server.running.deps.store.db.selectFrom('console_audit').select('id').where('action', '=', 'export').execute();
    assert.equal(after.length, before.length);
  });

  test('without a session the list and the export send the browser to sign in', async () => {
    for (const path of ['/console/candidates', '/console/candidates/export.csv']) {
      const res = await request(`${server.url}${path}`);
      assert.equal(res.status, 303, path);
      assert.equal(res.headers.get('location'), '/console/login');
    }
  });

  test("the log keeps the list's parameter names, never a search or an ExternalId", () => {
    assert.equal(redactUrl('/console/candidates?q=ozturk&status=Completed'), '/console/candidates?q=...&status=...');
    assert.equal(redactUrl('/console/candidates/export.csv?q=olga'), '/console/candidates/export.csv?q=...');
    assert.equal(redactUrl('/console/candidates/EXT-42'), '/console/candidates/...');
    assert.equal(redactUrl('/console/candidates'), '/console/candidates');
  });
});
