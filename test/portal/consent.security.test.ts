import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, csrfToken, FormClient, startPath } from '../helpers/forms.js';
import { apiClient, errorCode, request, type Credentials } from '../helpers/http.js';
import { localPath } from '../helpers/report-links.js';

type Tenant = Credentials & { apiKeyId: string };
const CODE = /<strong class="code">([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})<\/strong>/;
// Words of the feedback page only the candidate may read.
const FEEDBACK = /What motivates you most|May the organisation that invited you see your results/;

suiteOnEachDatabase("the candidate's consent needs the candidate's own credential, not the AssessmentUrl", { tenant: false }, ({ server, cliEnv, another }) => {
  async function portal(...settings: string[]): Promise<Tenant> {
    const tenant = (await server.tenant()) as Tenant;
    const r = await runCli(['portal', 'set', '--key', tenant.apiKeyId, ...settings, '--json'], cliEnv);
    assert.equal(r.code, 0, r.stderr);
    return tenant;
  }

  /** A candidate who finished in `candidate`, on a portal that offers feedback and asks for a release. */
  async function finished() {
    const a = await newAssessment(
      server.url,
      await portal('--candidate-release', 'on', '--candidate-feedback', 'on'),
      {},
      { FirstName: 'Zarathustra', LastName: 'Quimby' },
    );
    const candidate = new FormClient(server.url);
    const end = await completeViaForms(candidate, a.id);
    assert.equal(end.location, `/anonymous/analyse/${a.id}/feedback`);
    return { a, candidate, feedback: end.location };
  }
  const release = async (a: { id: string; api: ReturnType<typeof apiClient> }) =>
    (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ResultsRelease;

  test('the employer, holding only the AssessmentUrl, sees "finished" and can neither read the feedback nor release the results', async () => {
    const { a, candidate, feedback } = await finished();
    // Positive control: the candidate's own browser reads it.
    assert.match((await candidate.get(feedback)).html, FEEDBACK);

    const employer = new FormClient(server.url);
    const start = await employer.get(new URL(a.url).pathname);
    assert.equal(start.status, 200);
    assert.match(start.html, /This questionnaire has been completed/);
    assert.doesNotMatch(start.html, /\/feedback"/, 'no link to the feedback');
    assert.doesNotMatch(start.html, FEEDBACK);
    const page = await employer.get(feedback);
    assert.equal(page.status, 303);
    assert.equal(page.location, startPath(a.id));

    // A CSRF token of the code page is valid for this assessment: the release is still refused.
    const code = await employer.get(`/anonymous/analyse/${a.id}/code`);
    assert.equal(code.status, 200);
    const posted = await employer.post(feedback, { _csrf: csrfToken(code.html), decision: 'release' });
    assert.equal(posted.status, 403);
    assert.doesNotMatch(posted.html, FEEDBACK);
    assert.equal(await release(a), 'Pending');
    const report = await a.api.get(`/api/anonymous/assessment/${a.id}/report`);
    assert.equal(report.status, 409);
    assert.equal(errorCode(report), 'ResultsNotReleased');
  });

  test('the personal code lets the candidate decide on another device; a wrong code does not', async () => {
    const { a, candidate, feedback } = await finished();
    const code = CODE.exec((await candidate.get(feedback)).html)?.[1];
    assert.ok(code, 'the feedback page shows the personal code');

    const laptop = new FormClient(server.url);
    const form = await laptop.get(`/anonymous/analyse/${a.id}/code`);
    const wrongCode = code.slice(0, -1) + (code.endsWith('0') ? '1' : '0');
    const wrong = await laptop.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(form.html), code: wrongCode });
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /That code does not match/);
    assert.equal((await laptop.get(feedback)).status, 303, 'still no feedback');

    // As typed by a person: lower case, no dashes.
    const right = await laptop.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(wrong.html), code: code.replace(/-/g, '').toLowerCase() });
    assert.equal(right.status, 303);
    assert.equal(right.location, feedback);
    const page = await laptop.get(feedback);
    assert.match(page.html, FEEDBACK);
    const released = await laptop.post(feedback, { _csrf: csrfToken(page.html), decision: 'release' });
    assert.equal(released.status, 303);
    assert.equal(await release(a), 'Released');
  });

  test('a burst of wrong codes from one address is refused with 429 and Retry-After, the right code included, until the window passes', async () => {
    // A server of its own with a small window: the other tests' guesses do not count here.
    const small = await another({ PORTAL_CODE_GUESSES_PER_ADDRESS: '3' });
    try {
      const tenant = (await small.tenant()) as Tenant;
      const r = await runCli(['portal', 'set', '--key', tenant.apiKeyId, '--candidate-release', 'on', '--json'], {
        DATABASE_URL: small.databaseUrl,
        DATA_DIR: small.dataDir,
      });
      assert.equal(r.code, 0, r.stderr);
      const a = await newAssessment(small.url, tenant);
      const candidate = new FormClient(small.url);
      const code = CODE.exec((await candidate.get((await completeViaForms(candidate, a.id)).location!)).html)![1]!;
      const guesser = new FormClient(small.url);
      const form = await guesser.get(`/anonymous/analyse/${a.id}/code`);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await guesser.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(form.html), code: `0000-0000-000${i}` })).status);
      assert.deepEqual(statuses, [400, 400, 400, 429, 429]);
      const right = await guesser.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(form.html), code });
      assert.equal(right.status, 429, 'while limited, no code is checked');
      assert.ok(Number(right.headers.get('retry-after')) > 0);
      assert.equal(await release(a), 'Pending');
    } finally {
      await small.stop();
    }
  });

  test('a withdrawn release withholds the results again on every route, and the share link shows no name', async () => {
    const { a, candidate, feedback } = await finished();
    let page = await candidate.get(feedback);
    await candidate.post(feedback, { _csrf: csrfToken(page.html), decision: 'release' });
    const before = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
    assert.equal(before.ResultsRelease, 'Released');
    assert.equal(before.Scores.length, 26, 'released: the scores are there');
    const link = localPath(before.ReportUrl);
    const shared = await request(server.url + link);
    assert.match(shared.text, /profile-chart/, 'released: the share link shows the report');
    assert.equal((await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body.NormScoreScales.length, 26);

    page = await candidate.get(feedback);
    assert.match(page.html, /Withdraw my consent/);
    const withdrawn = await candidate.post(feedback, { _csrf: csrfToken(page.html), decision: 'withdraw' });
    assert.equal(withdrawn.status, 303);
    assert.equal(withdrawn.location, feedback);

    const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
    assert.equal(status.ResultsRelease, 'Declined');
    assert.deepEqual([status.Scores, status.IntegrityFlags, status.ConsistencyScore, status.ReportUrl], [null, null, null, null]);
    const results = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
    assert.deepEqual(
      [
        results.NormScoreScales,
        results.NormScores,
        results.NormScoresPercentage,
        results.AptitudeScores,
        results.AptitudeScoresPercentage,
        results.AptitudeScoresScale,
      ],
      [[], [], [], [], [], []],
    );
    assert.equal(results.ReportUrl, null);
    assert.match(results.Note, /has not released/);
    const report = await a.api.get(`/api/anonymous/assessment/${a.id}/report`);
    assert.equal(errorCode(report), 'ResultsNotReleased');
    const access = (await a.api.get(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`)).body.Data.Assessments[0];
    assert.deepEqual([access.Answers, access.Results], [null, null]);
    const held = await request(server.url + link);
    assert.equal(held.status, 200);
    assert.match(held.text, /Results not released/);
    assert.doesNotMatch(held.text, /profile-chart|Zarathustra|Quimby/);
    const pdf = await request(server.url + link.replace('?', '/pdf?'));
    assert.doesNotMatch(pdf.headers.get('content-type') ?? '', /pdf/);
  });

  test('the access call gives no answers while an assessment is unfinished, whether or not the portal asks for a release', async () => {
    const asks = await newAssessment(server.url, await portal('--candidate-release', 'on'));
    const free = await newAssessment(server.url, await server.tenant());
    const clients = new Map<string, FormClient>();
    for (const a of [asks, free]) {
      const client = new FormClient(server.url);
      clients.set(a.id, client);
      let res = await client.submit(startPath(a.id), {});
      // Answer the first questionnaire page, then stop.
      for (let steps = 0; !/\/questions\/\d+$/.test(res.location ?? ''); steps++) {
        if (steps === 10) throw new Error(`no questionnaire page after 10 steps; at ${res.location}`);
        res = await client.submit(res.location!, res.location!.endsWith('/gender') ? { Gender: '2' } : {});
      }
      const page = await client.get(res.location!);
      const fields: Record<string, string> = { _csrf: csrfToken(page.html), nav: 'next' };
      for (const m of page.html.matchAll(/name="(a_[A-Za-z0-9_-]+)"/g)) fields[m[1]!] = '4';
      assert.equal((await client.post(res.location!, fields)).status, 303);
    }
    const access = async (a: typeof asks) => (await a.api.get(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`)).body.Data.Assessments[0];
    for (const a of [asks, free]) {
      const held = await access(a);
      assert.equal(held.Status, 'Started');
      assert.deepEqual([held.Answers, held.Results, held.SecondsPerPage], [null, null, []]);
    }
    // Positive control: once finished on the portal that does not ask, its answers show.
    await completeViaForms(clients.get(free.id)!, free.id);
    const shown = await access(free);
    assert.equal(shown.Status, 'Completed');
    assert.ok(shown.Answers.length > 0);
    assert.ok(shown.SecondsPerPage.length > 0);
  });

  test('share links: none while withheld; the tenant revokes them over the API, another tenant cannot', async () => {
    const { a, candidate, feedback } = await finished();
    assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl, null, 'pending: no ReportUrl');
    assert.equal((await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body.ReportUrl, null);
    const page = await candidate.get(feedback);
    await candidate.post(feedback, { _csrf: csrfToken(page.html), decision: 'release' });
    const link = localPath((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl);
    assert.equal((await request(server.url + link)).status, 200);

    const other = apiClient(server.url, await server.tenant());
    const foreign = await other.delete(`/api/anonymous/assessment/${a.id}/report-links`);
    assert.equal(foreign.status, 404);
    assert.equal(errorCode(foreign), 'NotFound');
    assert.equal((await request(server.url + link)).status, 200, "another tenant's call revoked nothing");

    const revoked = await a.api.delete(`/api/anonymous/assessment/${a.id}/report-links`);
    assert.equal(revoked.status, 200, revoked.text);
    assert.deepEqual(revoked.body.Data, { AnalysisId: a.id, Revoked: true });
    assert.equal((await request(server.url + link)).status, 404);
    const fresh = localPath((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl);
    assert.notEqual(fresh, link);
    assert.equal((await request(server.url + fresh)).status, 200);
  });
});
