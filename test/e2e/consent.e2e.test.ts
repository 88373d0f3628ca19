import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import type { Page } from 'playwright-core';
import { portalSet } from '../helpers/cli.js';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { answerPage, assertAccessible, PHONE, suiteBrowser } from './browser.js';

suiteOnEachDatabase(
  "the candidate's consent in a real browser (chromium)",
  { on: 'first', tenant: { portalDomain: ({ url }) => url } },
  ({ server, creds, cliEnv }) => {
    const chromium = suiteBrowser(() => portalSet(creds.apiKeyId, cliEnv, '--candidate-release', 'on', '--candidate-feedback', 'on'));

    async function takeIt(page: Page, url: string): Promise<void> {
      await page.goto(url);
      await page.getByRole('button', { name: 'Start the questionnaire' }).click();
      for (let pages = 0; pages < 50; pages++) {
        await page.waitForSelector('fieldset.item', { timeout: 30_000 });
        await answerPage(page);
        const finish = page.getByRole('button', { name: /^Finish$/ });
        if (await finish.count()) {
          await finish.click();
          await page.waitForURL(/\/confirm$/, { timeout: 30_000 });
          await page.getByRole('button', { name: 'Yes, finish' }).click();
          return;
        }
        await page.getByRole('button', { name: 'Next' }).click();
      }
      throw new Error('no last page within 50 pages');
    }

    const release = async (id: string) =>
      (
        await fetch(`${server.url}/api/anonymous/assessment/${id}`, {
          headers: { authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`, 'api-key': creds.apiKey },
        }).then((r) => r.json())
      ).Data.ResultsRelease;

    test(
      'the browser that took it decides; a fresh context with the AssessmentUrl cannot; the personal code works elsewhere',
      { timeout: 240_000 },
      async () => {
        const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { Gender: 2 });
        const candidate = await (await chromium.it.newContext({ ...PHONE, locale: 'en-GB' })).newPage();
        await takeIt(candidate, a.url);
        await candidate.waitForURL(/\/feedback$/, { timeout: 30_000 });
        await candidate.getByRole('heading', { name: 'Your results' }).waitFor({ timeout: 10_000 });
        await assertAccessible(candidate, 'feedback');
        const code = (await candidate.locator('strong.code').textContent())!.trim();
        assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

        // The employer holds the same link, in a browser of their own.
        const employer = await (await chromium.it.newContext({ locale: 'en-GB' })).newPage();
        await employer.goto(a.url);
        assert.equal(await employer.getByRole('heading', { level: 1 }).textContent(), 'Already completed');
        assert.equal(await employer.getByRole('link', { name: 'See your results' }).count(), 0);
        await employer.goto(`${server.url}/anonymous/analyse/${a.id}/feedback`);
        assert.equal(await employer.getByRole('heading', { level: 1 }).textContent(), 'Already completed', 'sent back to the finished page');
        assert.equal(await employer.getByRole('button', { name: 'Yes, share my results' }).count(), 0);

        // The candidate's own browser still decides, from the AssessmentUrl, later.
        await candidate.goto(a.url);
        await candidate.getByRole('link', { name: 'See your results' }).click();
        await candidate.getByRole('button', { name: 'Yes, share my results' }).click();
        assert.equal(await release(a.id), 'Released');

        // On a laptop: the code, typed as a person might, then a withdrawal.
        const laptop = await (await chromium.it.newContext({ locale: 'en-GB' })).newPage();
        await laptop.goto(a.url);
        await laptop.getByRole('link', { name: 'I have a personal code' }).click();
        await assertAccessible(laptop, 'code form');
        await laptop.getByLabel('Personal code').fill('0000-0000-0000');
        await laptop.getByRole('button', { name: 'Continue' }).click();
        await laptop.locator('.error-summary').waitFor({ timeout: 10_000 });
        await assertAccessible(laptop, 'code form with an error');
        await laptop.getByLabel('Personal code').fill(code.toLowerCase().replace(/-/g, ' '));
        await laptop.getByRole('button', { name: 'Continue' }).click();
        await laptop.waitForURL(/\/feedback$/, { timeout: 10_000 });
        await laptop.getByRole('button', { name: 'Withdraw my consent' }).click();
        await laptop.getByRole('button', { name: 'Yes, share my results' }).waitFor({ timeout: 10_000 });
        assert.equal(await release(a.id), 'Declined');
      },
    );
  },
);
