import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken, type FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { plain } from '../helpers/html.js';
import { apiClient, uniqueId } from '../helpers/http.js';
import { signedInUser } from './console-helpers.js';

const PASSWORD = 'correct horse battery';

suiteOnEachDatabase('the console invite form over HTTP, without SMTP', { env: { TRUST_PROXY: '127.0.0.1' } }, ({ server, creds, cliEnv }) => {
  let recruiter: FormClient;
  let viewer: FormClient;
  before(async () => {
    recruiter = await signedInUser(server.url, cliEnv, creds.tenant, 'ines@example.test', PASSWORD, 'recruiter');
    viewer = await signedInUser(server.url, cliEnv, creds.tenant, 'vince@example.test', PASSWORD, 'viewer');
  });
  const api = () => apiClient(server.url, creds);
  const assessmentsOf = async (externalId: string) => {
    const res = await api().get(`/api/anonymous/candidate/${encodeURIComponent(externalId)}`);
    return res.status === 404 ? undefined : (res.body as { Data: { Assessments: Array<{ AnalysisId: string }> } }).Data.Assessments.map((a) => a.AnalysisId);
  };
  const person = (externalId: string) => ({
    ExternalId: externalId,
    Email: 'ida@example.com',
    FirstName: 'Ida',
    Preposition: 'van',
    LastName: 'Invite',
    AssessmentType: '0',
  });
  const linkOn = (html: string) => /<code class="assessment-url">([^<]+)<\/code>/.exec(html)?.[1];

  test('the list links to the form; wrong fields show beside themselves with the rule messages, and nothing is created', async () => {
    assert.match((await recruiter.get('/console/candidates')).html, /href="\/console\/invite"/);
    const id = uniqueId('inv');
    const res = await recruiter.submit('/console/invite?lang=en', { ...person(id), Email: 'not-an-address', FirstName: 'I', ExpiresAt: 'tomorrow' });
    assert.equal(res.status, 400);
    for (const f of ['Email', 'FirstName', 'ExpiresAt']) assert.match(res.html, new RegExp(`id="error-${f}"`), f);
    assert.doesNotMatch(res.html, /id="error-LastName"/);
    assert.ok(plain(res.html).includes('must be an ISO-8601 date-time'), "the expiry rule's own message");
    assert.ok(res.html.includes('value="not-an-address"'), 'the values stay');
    assert.equal(await assessmentsOf(id), undefined);
  });

  test('a recruiter invites a new candidate, then the same one again; without SMTP the page shows the link to copy', async () => {
    const id = uniqueId('inv');
    const first = await recruiter.submit('/console/invite?lang=en', person(id));
    assert.equal(first.status, 201, first.html.slice(0, 400));
    assert.ok(plain(first.html).includes('sends no e-mail'));
    const ids = await assessmentsOf(id);
    assert.equal(ids?.length, 1);
    assert.ok(linkOn(first.html)?.includes(ids![0]!), 'the link is the new assessment');

    const again = await recruiter.submit('/console/invite', { ...person(id), FirstName: 'Other' });
    assert.equal(again.status, 201);
    assert.equal((await assessmentsOf(id))?.length, 2, 'the candidate is reused');
    const audit = await server.running.deps.store.db.selectFrom('console_audit').select('action').where('action', '=', 'candidate.invite').execute();
    assert.equal(audit.length, 2);
  });

  test("another tenant's ExternalId is taken: an error beside the field, and nothing is made for it", async () => {
    const other = await server.tenant('console-invite-other');
    const theirs = await newAssessment(server.url, other, {}, {});
    const res = await recruiter.submit('/console/invite?lang=en', person(theirs.externalId));
    assert.equal(res.status, 409);
    assert.match(res.html, /id="error-ExternalId"/);
    const otherApi = apiClient(server.url, other);
    const held = await otherApi.get(`/api/anonymous/candidate/${encodeURIComponent(theirs.externalId)}`);
    assert.equal((held.body as { Data: { Assessments: unknown[] } }).Data.Assessments.length, 1);
  });

  test('a viewer gets 403 for the form and for a direct post, and nothing is created', async () => {
    assert.equal((await viewer.get('/console/invite')).status, 403);
    assert.doesNotMatch((await viewer.get('/console/candidates')).html, /href="\/console\/invite"/);
    const id = uniqueId('inv');
    const res = await viewer.post('/console/invite', { _csrf: csrfToken((await viewer.get('/console')).html), ...person(id) });
    assert.equal(res.status, 403);
    assert.match(plain(res.html), /does not allow this|staat dit niet toe/);
    assert.equal(await assessmentsOf(id), undefined);
    assert.equal((await recruiter.submit('/console/invite', person(id))).status, 201, "positive control: a recruiter's same post works");
  });
});
