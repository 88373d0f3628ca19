import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, csrfToken, FormClient, itemNames, startPath, type Page } from '../helpers/forms.js';
import type { Credentials } from '../helpers/http.js';

type Tenant = Credentials & { apiKeyId: string };
const CODE = /<strong class="code">([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})<\/strong>/;
const ELSEWHERE = /started on another device/;

/** Answers page 1 in `client` with 1, 2, 3, …; returns the page as the candidate sees it afterwards. */
async function answerFirstPage(client: FormClient, id: string): Promise<{ names: string[]; page: Page }> {
  const path = `/anonymous/analyse/${id}/questions/1`;
  const p1 = await client.get(path);
  assert.equal(p1.status, 200);
  const names = itemNames(p1.html);
  const fields: Record<string, string> = { _csrf: csrfToken(p1.html), nav: 'next' };
  names.forEach((n, i) => (fields[n] = String((i % 5) + 1)));
  assert.equal((await client.post(path, fields)).status, 303);
  return { names, page: await client.get(path) };
}

suiteOnEachDatabase("the candidate's answers are theirs from Start: the AssessmentUrl alone neither reads them nor acts for them", { tenant: false }, (ctx) => {
  async function portal(...settings: string[]): Promise<Tenant> {
    const tenant = (await ctx.server.tenant()) as Tenant;
    if (settings.length) assert.equal((await runCli(['portal', 'set', '--key', tenant.apiKeyId, ...settings, '--json'], ctx.cliEnv)).code, 0);
    return tenant;
  }

  for (const release of [false, true]) {
    test(`with release ${release ? 'required' : 'not asked'}: the employer's browser gets no answer and cannot save, confirm or finish`, async () => {
      const tenant = await portal(...(release ? ['--candidate-release', 'on', '--candidate-feedback', 'on'] : []));
      const a = await newAssessment(ctx.server.url, tenant);
      const candidate = new FormClient(ctx.server.url);
      const employer = new FormClient(ctx.server.url);
      // Before Start the link is enough to begin, as the spec says: a page with no answers on it.
      assert.equal((await employer.get(startPath(a.id))).status, 200);

      assert.equal((await candidate.submit(startPath(a.id), {})).status, 303);
      const { names, page } = await answerFirstPage(candidate, a.id);
      // Positive control: the candidate's own browser sees its answers, and its personal code.
      assert.match(page.html, new RegExp(`name="${names[2]}" value="3" checked`));
      assert.match(page.html, CODE);

      const q1 = `/anonymous/analyse/${a.id}/questions/1`;
      for (const path of [
        startPath(a.id),
        q1,
        `/anonymous/analyse/${a.id}/questions/2`,
        `/anonymous/analyse/${a.id}/confirm`,
        `/anonymous/analyse/${a.id}/gender`,
      ]) {
        const seen = await employer.get(path);
        assert.equal(seen.status, 403, path);
        assert.match(seen.html, ELSEWHERE, path);
        assert.doesNotMatch(seen.html, /checked|<strong class="code">/, path);
      }
      // The code page's CSRF token is valid for this assessment: the saves are still refused.
      const token = csrfToken((await employer.get(q1)).html);
      const overwrite: Record<string, string> = { _csrf: token, nav: 'next' };
      for (const n of names) overwrite[n] = '5';
      assert.equal((await employer.post(q1, overwrite)).status, 403);
      assert.equal((await employer.post(`/anonymous/analyse/${a.id}/confirm`, { _csrf: token, nav: 'finish' })).status, 403);
      assert.equal((await employer.post(startPath(a.id), { _csrf: token })).status, 403);
      const again = await candidate.get(q1);
      assert.match(again.html, new RegExp(`name="${names[2]}" value="3" checked`), 'the answers are unchanged');

      // The API, with the tenant's credentials: counts, no answers, no scores.
      const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(status.Status, 'Started');
      assert.equal(status.AnsweredItems, names.length);
      assert.equal(status.Answers ?? null, null);
      assert.equal(status.Scores ?? null, null);

      // The candidate finishes; the employer's browser still gets nothing of theirs.
      const end = await completeViaForms(candidate, a.id);
      assert.equal(end.status, 303);
      const after = await employer.get(startPath(a.id));
      assert.match(after.html, /This questionnaire has been completed/);
      assert.doesNotMatch(after.html, /checked|<strong class="code">/);
      if (release) {
        assert.equal(end.location, `/anonymous/analyse/${a.id}/feedback`, 'the candidate decides');
        const refused = await employer.post(`/anonymous/analyse/${a.id}/feedback`, { _csrf: token, decision: 'release' });
        assert.equal(refused.status, 403);
        assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ResultsRelease, 'Pending');
      }
    });
  }

  test("a form posted from another site is refused and changes nothing, even with the candidate's cookie and token", async () => {
    const a = await newAssessment(ctx.server.url, await portal());
    const candidate = new FormClient(ctx.server.url);
    await candidate.submit(startPath(a.id), {});
    const q1 = `/anonymous/analyse/${a.id}/questions/1`;
    const page = await candidate.get(q1);
    const names = itemNames(page.html);
    const body = new URLSearchParams({ _csrf: csrfToken(page.html), nav: 'next', ...Object.fromEntries(names.map((n) => [n, '5'])) }).toString();
    const post = (site: string) =>
      fetch(ctx.server.url + q1, {
        method: 'POST',
        redirect: 'manual',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: candidate.cookieHeader(), 'sec-fetch-site': site },
      });
    for (const site of ['same-site', 'cross-site']) assert.equal((await post(site)).status, 403, site);
    assert.doesNotMatch((await candidate.get(q1)).html, /checked/, 'nothing was saved');
    // Positive control: the same post from the portal's own page saves.
    assert.equal((await post('same-origin')).status, 303);
    assert.match((await candidate.get(q1)).html, new RegExp(`name="${names[0]}" value="5" checked`));
  });

  test('two browsers pressing Start at once: exactly one becomes the candidate, the other is asked for the code', async () => {
    const a = await newAssessment(ctx.server.url, await portal());
    const browsers = [new FormClient(ctx.server.url), new FormClient(ctx.server.url)];
    const pages = await Promise.all(browsers.map((b) => b.get(startPath(a.id))));
    const posts = await Promise.all(browsers.map((b, i) => b.post(startPath(a.id), { _csrf: csrfToken(pages[i]!.html) })));
    const onward = await Promise.all(browsers.map((b, i) => b.get(posts[i]!.location!)));
    assert.deepEqual(onward.map((p) => p.status).sort(), [200, 403]);
    assert.equal(onward.filter((p) => ELSEWHERE.test(p.html)).length, 1);
  });

  test('the personal code opens the session on a third browser, mid-way; a wrong one does not', async () => {
    const a = await newAssessment(ctx.server.url, await portal());
    const candidate = new FormClient(ctx.server.url);
    await candidate.submit(startPath(a.id), {});
    const { names, page } = await answerFirstPage(candidate, a.id);
    const code = CODE.exec(page.html)![1]!;
    const phone = new FormClient(ctx.server.url);
    const asked = await phone.get(startPath(a.id));
    const wrong = await phone.post(`/anonymous/analyse/${a.id}/code`, {
      _csrf: csrfToken(asked.html),
      code: code.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    });
    assert.equal(wrong.status, 400);
    assert.equal((await phone.get(`/anonymous/analyse/${a.id}/questions/1`)).status, 403);
    const right = await phone.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(wrong.html), code: code.toLowerCase() });
    assert.equal(right.location, `/anonymous/analyse/${a.id}/questions/2`);
    const p1 = await phone.get(`/anonymous/analyse/${a.id}/questions/1`);
    assert.match(p1.html, new RegExp(`name="${names[2]}" value="3" checked`));
  });

  test('an assessment started before this rule is claimed by the next browser to open it, and only by that one', async () => {
    const a = await newAssessment(ctx.server.url, await portal());
    const earlier = new FormClient(ctx.server.url);
    await earlier.submit(startPath(a.id), {});
    // As a row started by the previous version reads: started, bound to no browser.
    await ctx.server.running.deps.store.write((trx) => trx.updateTable('assessments').set({ candidate_bound: 0 }).where('analysis_id', '=', a.id).execute());
    // A link preview's HEAD claims nothing.
    const head = await fetch(ctx.server.url + startPath(a.id), { method: 'HEAD' });
    assert.equal(head.status, 403);
    assert.ok(!head.headers.getSetCookie().some((c) => c.startsWith('assay_candidate_')), 'no credential for a HEAD');
    const mid = new FormClient(ctx.server.url);
    const first = await mid.get(startPath(a.id));
    assert.equal(first.status, 200);
    assert.match(first.html, /Welcome back/);
    assert.equal((await mid.get(`/anonymous/analyse/${a.id}/questions/1`)).status, 200, 'the claiming browser goes on');
    const later = await new FormClient(ctx.server.url).get(startPath(a.id));
    assert.equal(later.status, 403);
    assert.match(later.html, ELSEWHERE);
  });
});

suiteOnEachDatabase(
  'personal code guesses are bounded per address and per assessment, apart from unknown links',
  { start: false, tenant: false },
  ({ another }) => {
    test("a shared address's unknown links do not lock out the right code; one address's wrong codes do not lock out another's right code; the assessment's own bound holds", async () => {
      const server = await another({
        TRUST_PROXY: '127.0.0.1',
        PORTAL_UNKNOWN_TOKEN_PER_MINUTE: '5',
        PORTAL_CODE_GUESSES_PER_ADDRESS: '3',
        PORTAL_CODE_GUESSES_PER_ASSESSMENT: '8',
      });
      try {
        const a = await newAssessment(server.url, await server.tenant());
        const candidate = new FormClient(server.url);
        await candidate.submit(startPath(a.id), {});
        const code = CODE.exec((await answerFirstPage(candidate, a.id)).page.html)![1]!;
        const from = (ip: string) => new FormClient(server.url, { 'x-forwarded-for': ip });
        const tryCode = async (client: FormClient, value: string) => {
          const form = await client.get(`/anonymous/analyse/${a.id}/code`);
          return client.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(form.html), code: value });
        };

        const nat = from('6.6.6.1');
        const misses: number[] = [];
        for (let i = 0; i < 31; i++) misses.push((await nat.get(`/anonymous/analyse/start/unknownLinkNumber${String(i).padStart(6, '0')}`)).status);
        assert.equal(misses.at(-1), 429, 'the unknown-link limit fired for this address');
        assert.equal((await tryCode(nat, code)).status, 303, 'the right code still opens');

        const guesser = from('6.6.6.2');
        const burst: number[] = [];
        for (let i = 0; i < 4; i++) burst.push((await tryCode(guesser, `0000-0000-000${i}`)).status);
        assert.deepEqual(burst, [400, 400, 400, 429]);
        assert.equal((await tryCode(guesser, code)).status, 429, 'while limited, no code is checked');
        assert.equal((await tryCode(from('6.6.6.3'), code)).status, 303, 'another address is not locked out');

        // 3 wrong so far; five more addresses, one wrong code each, reach the assessment's bound of 8.
        for (let i = 4; i <= 8; i++) assert.equal((await tryCode(from(`6.6.6.${i}`), '0000-0000-0009')).status, 400);
        const bounded = await tryCode(from('6.6.6.99'), code);
        assert.equal(bounded.status, 429, "the assessment's bound holds whatever the address");
        assert.ok(Number(bounded.headers.get('retry-after')) > 0);
      } finally {
        await server.stop();
      }
    });
  },
);
