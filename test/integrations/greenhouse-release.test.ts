import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { completeViaForms, csrfToken, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, basic, request } from '../helpers/http.js';
import { activateTestNorms } from '../helpers/norms.js';
import { dispatcherQuiet } from '../helpers/ticks.js';
import { eventually } from '../helpers/receiver.js';

/** send_test's body as the documentation's example has it, for one Greenhouse person. */
function sendTestBody(url: string, person: string) {
  return {
    partner_test_id: '0',
    candidate: {
      first_name: 'Harry',
      last_name: 'Potter',
      preferred_name: 'The Chosen One',
      phone_number: '123-456-7890',
      email: 'hpotter@hogwarts.edu',
      greenhouse_profile_url: `https://app.greenhouse.io/people/${person}?application_id=26234709`,
    },
    sent_by: 'test_sender@example.org',
    url,
  };
}

// A one-minute poll: sends come from the wakes the tests drive; retries after 20 ms.
const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000', WEBHOOK_RETRY_BASE_MS: '20' };

suiteOnEachDatabase('Greenhouse test_status while the candidate withholds the results', { smtp: true, receiver: true, env }, (ctx) => {
  let key: string;
  const gh = (path: string, init: { method?: string; body?: unknown } = {}) =>
    request(`${ctx.server.url}/integrations/greenhouse${path}`, { ...init, headers: { authorization: basic(key, '') } });

  before(async () => {
    await activateTestNorms(ctx.server.running.deps.store);
    const portal = await runCli(['portal', 'set', '--key', ctx.creds.apiKeyPrefix, '--candidate-release', 'on', '--json'], ctx.cliEnv);
    assert.equal(portal.code, 0, portal.stderr);
    const out = await runCli(['key', 'greenhouse', 'create', '--key', ctx.creds.apiKeyPrefix, '--json'], ctx.cliEnv);
    assert.equal(out.code, 0, out.stderr);
    key = JSON.parse(out.stdout).greenhouseKey;
  });

  test('completed but not released: no stens in metadata and the profile link shows the withheld page; once the candidate releases, the completion PATCH goes again exactly once and both show the results', async () => {
    const ordered = await gh('/send_test', { method: 'POST', body: sendTestBody(ctx.receiver.url('/gh-release'), '4242') });
    assert.equal(ordered.status, 200);
    const id: string = ordered.body.partner_interview_id;
    const candidate = new FormClient(ctx.server.url);
    const end = await completeViaForms(candidate, id);
    assert.equal(end.location, `/anonymous/analyse/${id}/feedback`, 'the portal asks the candidate to release');

    // The completion PATCH reached Greenhouse; with the dispatcher looked again, nothing more came before the release.
    const patches = () => ctx.receiver.received.filter((r) => r.url === '/gh-release');
    await ctx.receiver.waitForPath('/gh-release', 1);
    await dispatcherQuiet(ctx.server.running.deps.webhooks);
    assert.equal(patches().length, 1, 'one PATCH at completion, none since');

    const held = await gh(`/test_status?partner_interview_id=${id}`);
    assert.equal(held.status, 200);
    assert.equal(held.body.partner_status, 'complete');
    assert.equal(held.body.partner_score, null);
    const heldKeys = Object.keys(held.body.metadata);
    assert.deepEqual(
      heldKeys.filter((k) => /sten/i.test(k)),
      [],
      'no sten while withheld',
    );
    for (const v of Object.values(held.body.metadata)) assert.ok(typeof v !== 'number', `no number in metadata while withheld: ${String(v)}`);
    const heldLink = new URL(held.body.partner_profile_url);
    const heldPage = await request(ctx.server.url + heldLink.pathname + heldLink.search);
    assert.equal(heldPage.status, 200);
    assert.match(heldPage.text, /Results not released/);
    assert.doesNotMatch(heldPage.text, /profile-chart|Harry|Potter/, 'no scores and no name on the withheld page');

    // The candidate releases on the feedback page, in their own browser.
    const page = await candidate.get(end.location!);
    const released = await candidate.post(end.location!, { _csrf: csrfToken(page.html), decision: 'release' });
    assert.equal(released.status, 303);
    // The release queues the completion PATCH again, so Greenhouse reads test_status anew; a second release decision changes nothing.
    await ctx.receiver.waitForPath('/gh-release', 2);
    const again = await candidate.get(end.location!);
    assert.equal((await candidate.post(end.location!, { _csrf: csrfToken(again.html), decision: 'release' })).status, 303);
    await dispatcherQuiet(ctx.server.running.deps.webhooks);
    assert.deepEqual(
      patches().map((p) => [p.method, p.headers.authorization]),
      [
        ['PATCH', basic(key, '')],
        ['PATCH', basic(key, '')],
      ],
      'exactly one more PATCH, after the release, with the key',
    );
    const log = (await apiClient(ctx.server.url, ctx.creds).get(`/api/anonymous/assessment/${id}/webhooks`)).body.Data;
    assert.deepEqual(
      (log.Attempts ?? log).map((a: { Kind: string; Status: string }) => [a.Kind, a.Status]),
      [
        ['Automatic', 'Delivered'],
        ['Release', 'Delivered'],
      ],
    );

    // Positive control: the same calls now carry the stens the caller API gives, and the link the report.
    const api = apiClient(ctx.server.url, ctx.creds);
    const results = (await api.get(`/api/candidateanalysisresult/${id}/en-GB`)).body;
    assert.equal(results.NormScores.length, 26);
    const open = await gh(`/test_status?partner_interview_id=${id}`);
    assert.equal(open.status, 200);
    results.NormScoreScales.forEach((s: { Description: string }, i: number) =>
      assert.equal(open.body.metadata[`${s.Description} (sten)`], results.NormScores[i].Value, s.Description),
    );
    const link = new URL(open.body.partner_profile_url);
    const report = await request(ctx.server.url + link.pathname + link.search);
    assert.equal(report.status, 200);
    assert.match(report.text, /profile-chart/);
    assert.match(report.text, /Potter/);
  });

  /**
   * An order for `person` taken to completion, its completion PATCH received; then, after
   * `beforeRelease`, the candidate releases while Greenhouse answers the first PATCH after that
   * with 500 and the next ones with 204. Resolves once the release PATCH and its retry arrived and
   * the dispatcher is quiet, with the assessment's attempts as [Kind, Status].
   */
  async function releasedWithFirstPatchFailing(path: string, person: string, beforeRelease: (id: string) => Promise<void> = async () => {}) {
    const ordered = await gh('/send_test', { method: 'POST', body: sendTestBody(ctx.receiver.url(path), person) });
    assert.equal(ordered.status, 200);
    const id: string = ordered.body.partner_interview_id;
    const candidate = new FormClient(ctx.server.url);
    const end = await completeViaForms(candidate, id);
    await ctx.receiver.waitForPath(path, 1);
    await beforeRelease(id);
    let failed = 0;
    ctx.receiver.behaviour = (res, req) => res.writeHead(req.url === path && failed++ === 0 ? 500 : 204).end();
    const page = await candidate.get(end.location!);
    assert.equal((await candidate.post(end.location!, { _csrf: csrfToken(page.html), decision: 'release' })).status, 303);
    const webhooks = ctx.server.running.deps.webhooks;
    await eventually(
      async () => {
        webhooks.wake();
        return ctx.receiver.received.filter((r) => r.url === path).length >= 3 ? true : undefined;
      },
      15_000,
      'the release PATCH and its retry',
    );
    await dispatcherQuiet(webhooks);
    const log = (await apiClient(ctx.server.url, ctx.creds).get(`/api/anonymous/assessment/${id}/webhooks`)).body.Data;
    return (log.Attempts ?? log).map((a: { Kind: string; Status: string }) => [a.Kind, a.Status]) as [string, string][];
  }

  const RETRIED = [
    ['Automatic', 'Delivered'],
    ['Release', 'Failed'],
    ['Release', 'Delivered'],
  ];

  test('a release PATCH that Greenhouse answers with 500 is retried as the completion PATCH is, until it is taken', async () => {
    const path = '/gh-release-retry';
    assert.deepEqual(await releasedWithFirstPatchFailing(path, '4343'), RETRIED);
    assert.equal(ctx.receiver.received.filter((r) => r.url === path).length, 3, 'completion, the failed release PATCH, its retry');
  });

  test("a release eight days after completion, past the completion's seven-day retry window, still has its failed PATCH retried", async () => {
    // The completion's PATCH as if queued eight days ago: a retry counted from it would be past the window.
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    const attempts = await releasedWithFirstPatchFailing('/gh-release-late', '4344', async (id) => {
      const moved = await ctx.server.running.deps.store.write((trx) =>
        trx.updateTable('webhook_attempts').set({ created_at: eightDaysAgo }).where('analysis_id', '=', id).executeTakeFirst(),
      );
      assert.equal(Number(moved.numUpdatedRows), 1, 'positive control: the completion attempt was moved back');
    });
    assert.deepEqual(attempts, RETRIED);
  });
});
