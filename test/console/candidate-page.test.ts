import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken, type FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { plain } from '../helpers/html.js';
import { redactUrl } from '../../src/http/plugins/logging.js';
import { signedInUser } from './console-helpers.js';

const PASSWORD = 'correct horse battery';
// The guard's 403 text (not the expired-form one), in either language.
const FORBIDDEN = /does not allow this|staat dit niet toe/;

suiteOnEachDatabase("the console's candidate page and its actions over HTTP, by role", { env: { TRUST_PROXY: '127.0.0.1' } }, ({ server, creds, cliEnv }) => {
  let recruiter: FormClient;
  let viewer: FormClient;
  before(async () => {
    recruiter = await signedInUser(server.url, cliEnv, creds.tenant, 'rosa@example.test', PASSWORD, 'recruiter');
    viewer = await signedInUser(server.url, cliEnv, creds.tenant, 'vera@example.test', PASSWORD, 'viewer');
  });

  const page = (externalId: string, query = '') => `/console/candidates/${encodeURIComponent(externalId)}${query}`;
  const statusOf = async (api: Awaited<ReturnType<typeof newAssessment>>['api'], id: string) =>
    ((await api.get(`/api/anonymous/assessment/${id}`)).body as { Data: { Status: string } }).Data.Status;
  const auditActions = async () =>
    (await server.running.deps.store.db.selectFrom('console_audit').select('action').where('tenant_id', '=', creds.tenantId).execute()).map((r) => r.action);

  test("every role reads the candidate's name and assessments with their links, in English and Dutch", async () => {
    const a = await newAssessment(server.url, creds, {}, { FirstName: 'Petra', LastName: 'Pagina' });
    for (const browser of [recruiter, viewer]) {
      const res = await browser.get(page(a.externalId, '?lang=en'));
      assert.equal(res.status, 200);
      const text = plain(res.html);
      assert.ok(text.includes('Petra') && text.includes('Pagina'), 'the name');
      assert.ok(text.includes(a.externalId));
      assert.ok(res.html.includes(a.url), 'the AssessmentUrl');
      assert.ok(text.includes('Invited') && text.includes('Expires'));
    }
    const nl = plain((await recruiter.get(page(a.externalId, '?lang=nl'))).html);
    assert.ok(nl.includes('Uitgenodigd') && nl.includes('Verloopt') && nl.includes('Kandidaat wissen'));
    assert.doesNotMatch((await viewer.get(page(a.externalId))).html, /name="_csrf"/, "a viewer's page has no action forms");
  });

  test("another tenant's candidate and an unknown one give the same 404 page", async () => {
    const other = await server.tenant('console-page-other');
    const stranger = await newAssessment(server.url, other, {}, { FirstName: 'Otto', LastName: 'Onbekend' });
    const theirs = await recruiter.get(page(stranger.externalId));
    const unknown = await recruiter.get(page('no-such-candidate'));
    assert.equal(theirs.status, 404);
    assert.equal(unknown.status, 404);
    assert.ok(!plain(theirs.html).includes('Onbekend'));
    const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)![0];
    assert.equal(main(theirs.html), main(unknown.html));
  });

  test('a viewer posting cancel gets 403 and nothing changes; a recruiter cancels, audited without the ExternalId', async () => {
    const a = await newAssessment(server.url, creds, {}, { FirstName: 'Cees', LastName: 'Cancel' });
    const token = csrfToken((await viewer.get('/console')).html);
    const refused = await viewer.post(`${page(a.externalId)}/cancel`, { _csrf: token, AnalysisId: a.id });
    assert.equal(refused.status, 403);
    assert.match(plain(refused.html), FORBIDDEN, 'refused for the role, not for the token');
    assert.equal(await statusOf(a.api, a.id), 'Created');
    assert.ok(!(await auditActions()).includes('assessment.cancel'));

    const form = await recruiter.get(page(a.externalId));
    const res = await recruiter.post(`${page(a.externalId)}/cancel`, { _csrf: csrfToken(form.html), AnalysisId: a.id });
    assert.equal(res.status, 200, res.html.slice(0, 300));
    assert.equal(await statusOf(a.api, a.id), 'Cancelled');
    assert.ok((await auditActions()).includes('assessment.cancel'));
  });

  test('resend without SMTP says so and shows the link to copy; a viewer gets 403', async () => {
    const a = await newAssessment(server.url, creds, {}, { FirstName: 'Rik', LastName: 'Resend' });
    const token = csrfToken((await viewer.get('/console')).html);
    const refused = await viewer.post(`${page(a.externalId)}/resend`, { _csrf: token, AnalysisId: a.id });
    assert.equal(refused.status, 403);
    assert.match(plain(refused.html), FORBIDDEN);
    const form = await recruiter.get(page(a.externalId, '?lang=en'));
    const res = await recruiter.post(`${page(a.externalId)}/resend`, { _csrf: csrfToken(form.html), AnalysisId: a.id });
    assert.equal(res.status, 200);
    const text = plain(res.html);
    assert.ok(text.includes('sends no e-mail') && text.includes(a.url), text.slice(0, 500));
  });

  test('erasing needs the ExternalId typed; a viewer gets 403; the erased candidate leaves the list', async () => {
    const a = await newAssessment(server.url, creds, {}, { FirstName: 'Eva', LastName: 'Erase' });
    const candidate = () => a.api.get(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`);
    const form = await recruiter.get(page(a.externalId, '?lang=en'));
    const wrong = await recruiter.post(`${page(a.externalId)}/erase`, { _csrf: csrfToken(form.html), confirm: `${a.externalId}x` });
    assert.equal(wrong.status, 422);
    assert.ok(plain(wrong.html).includes('does not match'));
    assert.equal((await candidate()).status, 200, 'a wrong confirmation erases nothing');

    const token = csrfToken((await viewer.get('/console')).html);
    const refused = await viewer.post(`${page(a.externalId)}/erase`, { _csrf: token, confirm: a.externalId });
    assert.equal(refused.status, 403);
    assert.match(plain(refused.html), FORBIDDEN);
    assert.equal((await candidate()).status, 200, "a viewer's post erases nothing");
    assert.ok(plain((await recruiter.get('/console/candidates')).html).includes('Erase'), 'positive control: listed before');

    const again = await recruiter.get(page(a.externalId));
    const res = await recruiter.post(`${page(a.externalId)}/erase`, { _csrf: csrfToken(again.html), confirm: a.externalId });
    assert.equal(res.status, 200, res.html.slice(0, 300));
    assert.equal((await candidate()).status, 404);
    assert.ok(!plain((await recruiter.get('/console/candidates')).html).includes('Erase'), 'gone from the list');
    assert.equal((await recruiter.get(page(a.externalId))).status, 404);
    assert.ok((await auditActions()).includes('candidate.erase'));
  });

  test('audit rows hold no ExternalId, name or e-mail address', async () => {
    const rows = await server.running.deps.store.db.selectFrom('console_audit').selectAll().execute();
    assert.ok(
      rows.some((r) => r.action === 'candidate.erase'),
      'positive control: the actions were audited',
    );
    const text = JSON.stringify(rows);
    for (const word of ['ext-', 'Erase', 'Cancel', 'example.com']) assert.ok(!text.includes(word), word);
  });
  test("the log keeps an action's path without the ExternalId", () => {
    for (const action of ['cancel', 'resend', 'erase']) assert.equal(redactUrl(`/console/candidates/EXT-42/${action}`), '/console/candidates/...');
  });
});
