import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, csrfToken, FormClient, startPath } from '../helpers/forms.js';
import { errorCode, request, type Credentials } from '../helpers/http.js';
import { instruments } from '../helpers/results.js';
import { activateTestNorms } from '../helpers/norms.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

type Tenant = Credentials & { apiKeyId: string };
const LISTS = ['AptitudeScores', 'NormScores', 'NormScoresPercentage', 'AptitudeScoresPercentage', 'NormScoreScales', 'AptitudeScoresScale'];

// A real group, so released results fill the normed lists (an illustrative one never does).
suiteOnEachDatabase(
  "the candidate's feedback and the release of results",
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' }, tenant: false, receiver: true },
  ({ server, receiver, cliEnv }) => {
    before(async () => {
      await activateTestNorms(server.running.deps.store);
    });

    async function portal(...settings: string[]): Promise<Tenant> {
      const tenant = (await server.tenant()) as Tenant;
      const r = await runCli(['portal', 'set', '--key', tenant.apiKeyId, ...settings, '--json'], cliEnv);
      assert.equal(r.code, 0, r.stderr);
      return tenant;
    }

    test('off by default: the candidate goes straight to the ReturnUrl', async () => {
      const a = await newAssessment(server.url, await server.tenant(), { ReturnUrl: 'https://ats.example.com/back' });
      assert.equal((await completeViaForms(new FormClient(server.url), a.id)).location, 'https://ats.example.com/back');
    });

    test("feedback on: a short summary in the candidate's language, then on to the ReturnUrl; the results are not held back", async () => {
      const tenant = await portal('--candidate-feedback', 'on');
      const a = await newAssessment(server.url, tenant, { ReturnUrl: 'https://ats.example.com/back' });
      const client = new FormClient(server.url, { 'accept-language': 'nl' });
      const end = await completeViaForms(client, a.id);
      assert.equal(end.location, `/anonymous/analyse/${a.id}/feedback`);
      const page = await client.get(end.location!);
      assert.equal(page.status, 200);
      assert.match(page.html, /<h1>Uw resultaten<\/h1>/);
      assert.match(page.html, /Wat u het meest motiveert/);
      assert.equal([...page.html.matchAll(/<li><strong>/g)].length, 5, 'three strongest and two weakest motivations');
      assert.doesNotMatch(page.html, /name="decision"/, 'no release question');
      assert.match(page.html, /<a class="button-link" href="https:\/\/ats\.example\.com\/back">Verder<\/a>/);
      assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/ats\.example\.com/);
      const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(status.ResultsRelease, 'NotRequired');
      assert.deepEqual([status.Language, status.ContentVersion], ['nl', instruments.get(0)!.version], 'taken in Dutch, in the content version shipped');
      assert.equal((await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body.NormScores.length, 26);
      const again = await client.get(startPath(a.id));
      assert.match(again.html, new RegExp(`href="/anonymous/analyse/${a.id}/feedback"`), "the start link offers the results again in the candidate's browser");
      const elsewhere = await new FormClient(server.url).get(startPath(a.id));
      assert.doesNotMatch(elsewhere.html, /\/feedback"/, 'and only there');
      assert.match(elsewhere.html, new RegExp(`href="/anonymous/analyse/${a.id}/code"`), 'elsewhere, a way to type the personal code');
    });

    test('release on: scores are withheld everywhere until the candidate agrees; the webhook is sent at completion all the same', async () => {
      const tenant = await portal('--candidate-release', 'on');
      const a = await newAssessment(server.url, tenant, { ReturnUrl: 'https://ats.example.com/back', WebhookUrl: receiver.url('/released') });
      const client = new FormClient(server.url);
      const end = await completeViaForms(client, a.id);
      assert.equal(end.location, `/anonymous/analyse/${a.id}/feedback`);
      await receiver.waitForPath('/released');

      const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(status.Status, 'Completed');
      assert.equal(status.ResultsRelease, 'Pending');
      assert.equal(status.Scores, null);
      assert.equal(status.IntegrityFlags, null);
      const withheld = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      assert.equal(withheld.Done, true);
      for (const list of LISTS) assert.deepEqual(withheld[list], [], list);
      assert.equal(withheld.ConsistencyScore, '');
      assert.deepEqual(withheld.IntegrityFlags, []);
      const access = async () => (await a.api.get(`/api/anonymous/candidate/${a.externalId}`)).body.Data.Assessments.find((x: any) => x.AnalysisId === a.id);
      const accessWithheld = await access();
      assert.equal(accessWithheld.ResultsRelease, 'Pending');
      assert.equal(accessWithheld.Results, null, 'the access call shows no scores');
      assert.equal(accessWithheld.Answers, null, 'nor the answers they come from');
      assert.match(withheld.Note, /has not released/);
      const report = await a.api.get(`/api/anonymous/assessment/${a.id}/report`);
      assert.equal(report.status, 409);
      assert.equal(errorCode(report), 'ResultsNotReleased');
      assert.equal(status.ReportUrl, null, 'no share link while withheld');

      // The candidate sees their summary first, then agrees.
      const page = await client.get(end.location!);
      assert.match(page.html, /May the organisation that invited you see your results\?/);
      const agreed = await client.post(end.location!, { _csrf: csrfToken(page.html), decision: 'release' });
      assert.equal(agreed.status, 303);
      assert.equal(agreed.location, 'https://ats.example.com/back');
      const after = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(after.ResultsRelease, 'Released');
      assert.equal(after.Scores.length, 26);
      const shared = await request(after.ReportUrl.replace(/^https?:\/\/[^/]+/, server.url));
      assert.equal(shared.status, 200);
      assert.match(shared.text, /profile-chart/, 'released: the share link shows the report');
      const released = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      for (const list of LISTS) assert.ok(released[list].length > 0, `${list}: released, the lists fill`);
      assert.equal(released.NormScoreScales.length, 26);
      const accessReleased = await access();
      assert.equal(accessReleased.Results.Scales.length, 26);
      assert.equal(accessReleased.Answers.length, 170);
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}/report`)).status, 200);
      // The release queues nothing for a caller-API webhook (only a Greenhouse order is PATCHed again): proved after the dispatcher looked.
      await dispatcherQuiet(server.running.deps.webhooks);
      assert.equal(receiver.received.filter((r) => r.url === '/released').length, 1, 'one webhook, at completion');
    });

    test('a candidate who declines can change their mind later; a stale decline does not undo a release', async () => {
      const tenant = await portal('--candidate-release', 'on', '--candidate-feedback', 'on');
      const a = await newAssessment(server.url, tenant);
      const client = new FormClient(server.url);
      const end = await completeViaForms(client, a.id);
      const feedback = end.location!;
      let page = await client.get(feedback);
      const token = csrfToken(page.html);
      const declined = await client.post(feedback, { _csrf: token, decision: 'decline' });
      assert.equal(declined.location, `/anonymous/analyse/${a.id}/done`);
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ResultsRelease, 'Declined');
      page = await client.get(feedback);
      assert.match(page.html, /You chose not to share your results/);
      await client.post(feedback, { _csrf: csrfToken(page.html), decision: 'release' });
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ResultsRelease, 'Released');
      page = await client.get(feedback);
      assert.doesNotMatch(page.html, /value="release"|value="decline"/, 'released: no question again');
      assert.match(page.html, /name="decision" value="withdraw"/, 'only a withdrawal');
      await client.post(feedback, { _csrf: token, decision: 'decline' });
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ResultsRelease, 'Released');
    });

    test('the feedback page exists only after completion, and only where the portal offers it', async () => {
      const plain = await newAssessment(server.url, await server.tenant());
      await completeViaForms(new FormClient(server.url), plain.id);
      const client = new FormClient(server.url);
      const res = await client.get(`/anonymous/analyse/${plain.id}/feedback`);
      assert.equal(res.status, 303, 'not offered: sent to where the candidate belongs');
      const open = await newAssessment(server.url, await portal('--candidate-feedback', 'on'));
      assert.equal((await client.get(`/anonymous/analyse/${open.id}/feedback`)).status, 303, 'not completed yet');
    });
  },
);
