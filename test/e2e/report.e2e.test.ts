/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Browser } from 'playwright-core';
import { updatePortalSettings } from '../../src/tenancy/portal-settings-store.js';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken, FormClient, itemNames, startPath } from '../helpers/forms.js';
import { readPdf } from '../helpers/pdf.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { answerPage, assertAccessible, launch, PHONE, playTheAts } from './browser.js';

suiteOnEachDatabase(
  "the report and the candidate's release, in a real browser (chromium)",
  { on: 'first', env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, tenant: { portalDomain: ({ url }) => url }, receiver: true },
  ({ server, creds, receiver }) => {
    let browser: Browser;
    before(async () => {
      playTheAts(receiver);
      await updatePortalSettings(server.running.deps.store, creds.apiKeyId, { candidate_feedback: 1, candidate_release: 1 });
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
    });

    /** Answers every page but the last through plain forms, so the browser only finishes: that browser and the personal code its pages show. */
    async function allButLastPage(id: string): Promise<{ client: FormClient; code: string }> {
      const client = new FormClient(server.url);
      let res = await client.submit(startPath(id), {});
      // More pages than any questionnaire has: a flow that never ends fails.
      for (let pages = 0; pages < 50; pages++) {
        const page = await client.get(res.location!);
        if (/value="finish"/.test(page.html)) return { client, code: /<strong class="code">([0-9A-Z-]{14})<\/strong>/.exec(page.html)![1]! };
        const fields: Record<string, string> = { _csrf: csrfToken(page.html), nav: 'next' };
        for (const [i, name] of itemNames(page.html).entries()) fields[name] = String((i % 5) + 1);
        res = await client.post(res.location!, fields);
      }
      throw new Error('no last page within 50 pages');
    }

    test('the candidate finishes, reads their summary, agrees to share, and goes back to the ATS; the results open up', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0, ReturnUrl: receiver.url('/return') });
      const { code } = await allButLastPage(a.id);
      const context = await browser.newContext({ ...PHONE, locale: 'en-GB' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      // The candidate goes on in the browser with their personal code.
      await page.goto(a.url);
      await page.getByLabel('Personal code').fill(code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/questions\/\d+$/);
      // The code page answers 403 on purpose; what must not appear from here on is a refused script, style or form.
      errors.length = 0;
      await page.waitForSelector('fieldset.item');
      await answerPage(page);
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.waitForURL(/\/confirm$/);
      await page.getByRole('button', { name: 'Yes, finish' }).click();
      await page.waitForURL(/\/feedback$/);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Your results');
      assert.equal(await page.locator('ul.feedback li').count(), 5);
      await assertAccessible(page, 'feedback with the release question');
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ResultsRelease, 'Pending');

      await page.getByRole('button', { name: 'Yes, share my results' }).click();
      await page.waitForURL(receiver.url('/return'));
      assert.equal(await page.locator('h1').textContent(), 'Back at the ATS');
      assert.deepEqual(errors, []);
      await context.close();
      const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(status.ResultsRelease, 'Released');
      assert.equal(status.Scores.length, 26);
    });

    test('the report from a share link: no accessibility violations in nl or en, no CSP errors, and it prints on A4', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { FirstName: 'Zoë', Preposition: 'de', LastName: 'Vries' });
      const { client } = await allButLastPage(a.id);
      const last = `/anonymous/analyse/${a.id}/questions/17`;
      const html = (await client.get(last)).html;
      const fields: Record<string, string> = { _csrf: csrfToken(html), nav: 'finish' };
      for (const name of itemNames(html)) fields[name] = '4';
      await client.post(last, fields);
      await client.submit(`/anonymous/analyse/${a.id}/confirm`, { nav: 'finish' });
      const feedback = await client.get(`/anonymous/analyse/${a.id}/feedback`);
      await client.post(`/anonymous/analyse/${a.id}/feedback`, { _csrf: csrfToken(feedback.html), decision: 'release' });
      const link = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl as string;

      const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
      for (const lang of ['en', 'nl']) {
        await page.goto(`${link}&lang=${lang}`);
        assert.match(await page.title(), /Zoë de Vries/);
        assert.equal(await page.locator('svg.profile-chart rect[fill="#1d4ed8"]').count(), 26);
        await assertAccessible(page, `report (${lang})`);
      }
      assert.deepEqual(errors, [], 'the stylesheet loads under the CSP; nothing is refused');

      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.locator('.pdf-link').isVisible(), false, 'the download link is not printed');
      const printed = await readPdf(await page.pdf({ format: 'A4', printBackground: true }));
      assert.ok(printed.pages >= 2 && printed.pages <= 8, `${printed.pages} A4 pages`);
      assert.ok(printed.text.join(' ').includes('Zoë de Vries'));
      await context.close();
    });
  },
);
