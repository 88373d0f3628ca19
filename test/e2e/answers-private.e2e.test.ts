import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from '../helpers/deadline.js';
import { portalSet } from '../helpers/cli.js';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { answerPage, assertAccessible, PHONE, suiteBrowser } from './browser.js';

const ELSEWHERE = 'This questionnaire was started on another device';

suiteOnEachDatabase(
  "the candidate's answers in a real browser (chromium): the employer's context, with the link and the API, gets none of them",
  {
    on: 'first',
    tenant: { portalDomain: ({ url }) => url },
    env: { TRUST_PROXY: '127.0.0.1', PORTAL_CODE_GUESSES_PER_ADDRESS: '3' },
  },
  ({ server, creds, cliEnv }) => {
    const chromium = suiteBrowser(() => portalSet(creds.apiKeyId, cliEnv, '--candidate-release', 'on', '--candidate-feedback', 'on'));

    const auth = () => ({ authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`, 'api-key': creds.apiKey });
    const status = async (id: string) => (await fetch(`${server.url}/api/anonymous/assessment/${id}`, { headers: auth() }).then((r) => r.json())).Data;
    const checked = (page: Page) => page.locator('input:checked').count();
    const newPage = async (address: string, phone = false) =>
      (await chromium.it.newContext({ ...(phone ? PHONE : {}), locale: 'en-GB', extraHTTPHeaders: { 'x-forwarded-for': address } })).newPage();

    /** The employer's browser at `path`: the started-elsewhere page, no answer and no code on it. */
    async function employerSees(employer: Page, path: string): Promise<string> {
      await employer.goto(server.url + path);
      assert.equal(await employer.getByRole('heading', { level: 1 }).textContent(), ELSEWHERE, path);
      assert.equal(await checked(employer), 0, `${path}: no answer shown`);
      assert.equal(await employer.locator('.personal-code').count(), 0, `${path}: no code shown`);
      return (await employer.locator('input[name=_csrf]').getAttribute('value'))!;
    }

    test(
      'before Start, mid-way, at the confirm step and after completion the employer reads no answer and cannot finish, decide or withdraw; the code opens a third context',
      { timeout: 240_000 },
      async () => {
        const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { Gender: 2 });
        const base = `/anonymous/analyse/${a.id}`;
        const employer = await newPage('6.6.6.1');
        await employer.goto(a.url);
        assert.equal(await employer.getByRole('button', { name: 'Start the questionnaire' }).count(), 1, 'before Start, the link is enough to begin');
        assert.equal(await checked(employer), 0);

        const candidate = await newPage('6.6.6.2', true);
        await candidate.goto(a.url);
        await candidate.getByRole('button', { name: 'Start the questionnaire' }).click();
        await candidate.waitForSelector('fieldset.item', { timeout: 30_000 });
        const code = (await candidate.locator('.personal-code strong.code').textContent())!.trim();
        assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
        await assertAccessible(candidate, 'a questions page with the personal code');
        await answerPage(candidate);
        await candidate.getByRole('button', { name: 'Next' }).click();
        await candidate.waitForURL(/\/questions\/2$/, { timeout: 30_000 });

        // Mid-way: every page of the session, and a forged save with the code page's own token.
        await employerSees(employer, '/anonymous/analyse/start/' + a.id);
        const token = await employerSees(employer, `${base}/questions/1`);
        await assertAccessible(employer, 'started on another device');
        const forged = await employer.request.post(`${server.url}${base}/questions/2`, { form: { _csrf: token, nav: 'next' }, maxRedirects: 0 });
        assert.equal(forged.status(), 403);
        const mid = await status(a.id);
        assert.equal(mid.AnsweredItems, 10, 'the API gives a count');
        assert.equal(mid.Answers ?? null, null, 'and no answers');

        for (let pages = 2; pages <= 17; pages++) {
          await candidate.waitForSelector('fieldset.item', { timeout: 30_000 });
          await answerPage(candidate);
          await candidate.getByRole('button', { name: pages === 17 ? /^Finish$/ : 'Next' }).click();
        }
        await candidate.waitForURL(/\/confirm$/, { timeout: 30_000 });

        // At the confirm step: the employer can neither see it nor finish.
        const confirmToken = await employerSees(employer, `${base}/confirm`);
        const finish = await employer.request.post(`${server.url}${base}/confirm`, { form: { _csrf: confirmToken, nav: 'finish' }, maxRedirects: 0 });
        assert.equal(finish.status(), 403);
        assert.equal((await status(a.id)).Status, 'Started');

        // A third context: a burst of wrong codes from one address is limited; the right code from another opens the session.
        const guesser = await newPage('6.6.6.3');
        await guesser.goto(a.url);
        for (let i = 0; i < 3; i++) {
          await guesser.getByLabel('Personal code').fill(`0000-0000-000${i}`);
          await guesser.getByRole('button', { name: 'Continue' }).click();
          await guesser.locator('.error-summary').waitFor({ timeout: 10_000 });
        }
        await guesser.getByLabel('Personal code').fill(code);
        await guesser.getByRole('button', { name: 'Continue' }).click();
        await guesser.getByRole('heading', { name: 'Too many attempts' }).waitFor({ timeout: 10_000 });
        const laptop = await newPage('6.6.6.4');
        await laptop.goto(a.url);
        await laptop.getByLabel('Personal code').fill(code.toLowerCase().replace(/-/g, ' '));
        await laptop.getByRole('button', { name: 'Continue' }).click();
        await laptop.waitForURL(/\/confirm$/, { timeout: 10_000 });
        await laptop.goto(`${server.url}${base}/questions/1`);
        assert.equal(await checked(laptop), 10, "the candidate's answers, on the candidate's third device");

        await candidate.getByRole('button', { name: 'Yes, finish' }).click();
        await candidate.waitForURL(/\/feedback$/, { timeout: 30_000 });

        // After completion: the finished page only; no decision, no withdrawal.
        await employer.goto(a.url);
        assert.equal(await employer.getByRole('heading', { level: 1 }).textContent(), 'Already completed');
        assert.equal(await employer.getByRole('link', { name: 'See your results' }).count(), 0);
        for (const decision of ['release', 'withdraw']) {
          const posted = await employer.request.post(`${server.url}${base}/feedback`, { form: { _csrf: confirmToken, decision }, maxRedirects: 0 });
          assert.equal(posted.status(), 403, decision);
        }
        const done = await status(a.id);
        assert.equal(done.Status, 'Completed');
        assert.equal(done.ResultsRelease, 'Pending');
        // Positive control: the candidate's own browser decides.
        await candidate.getByRole('button', { name: 'Yes, share my results' }).click();
        await candidate.waitForURL((u) => !u.pathname.endsWith('/feedback'), { timeout: 10_000 });
        assert.equal((await status(a.id)).ResultsRelease, 'Released');
      },
    );
  },
);
