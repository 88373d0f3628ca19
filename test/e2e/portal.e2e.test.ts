/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Browser, Page } from 'playwright-core';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { dispatcherQuiet } from '../helpers/ticks.js';
import { answerPage, answerPageByKeyboard, assertAccessible, launch, PHONE, tabTo, watchedPhonePage, playTheAts } from './browser.js';

suiteOnEachDatabase(
  'the portal in a real browser (chromium, 360 px)',
  { on: 'first', env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, tenant: { portalDomain: ({ url }) => url }, receiver: true },
  ({ server, creds, receiver }) => {
    let browser: Browser;
    before(async () => {
      playTheAts(receiver);
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
    });

    const start = (id: string) => `${server.url}/anonymous/analyse/start/${id}`;

    async function finishQuestionnaire(page: Page, checkA11y: boolean): Promise<void> {
      let first = true;
      // More pages than any questionnaire has: a flow that never ends fails.
      for (let pages = 0; pages < 50; pages++) {
        await page.waitForSelector('fieldset.item');
        if (first && checkA11y) {
          // Submit an empty page once to see the error state, then check both states.
          await assertAccessible(page, 'questions');
          await page.getByRole('button', { name: /Next|Volgende/ }).click();
          await page.waitForSelector('.error-summary');
          assert.equal(await page.evaluate(() => document.activeElement?.className), 'error-summary', 'focus moves to the error summary');
          await assertAccessible(page, 'questions with errors');
        }
        first = false;
        await answerPage(page);
        const finish = page.getByRole('button', { name: /^(Finish|Afronden)$/ });
        if (await finish.count()) {
          await finish.click();
          // Answers become final only after the confirmation, asked on the server.
          await page.waitForURL(/\/confirm$/);
          if (checkA11y) await assertAccessible(page, 'confirm');
          await page.getByRole('button', { name: /Yes, finish|Ja, afronden/ }).click();
          return;
        }
        await page.getByRole('button', { name: /Next|Volgende/ }).click();
      }
      throw new Error('no last page within 50 pages');
    }

    test('TMA170 with NeedsToUpdateData and Gender 0: every step, then the ReturnUrl and one Basic webhook', async () => {
      const a = await newAssessment(
        server.url,
        creds,
        { AssessmentType: 0, ReturnUrl: receiver.url('/return'), WebhookUrl: receiver.url('/hook'), WebhookUsername: 'ats', WebhookPassword: 's3cret!' },
        { NeedsToUpdateData: true, Gender: 0 },
      );
      const { context, page, errors } = await watchedPhonePage(browser, 'en-GB');

      await page.goto(a.url);
      assert.equal(await page.title(), 'Welcome – Assay assessment');
      await assertAccessible(page, 'start');
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360, 'no horizontal scrolling at 360 px');
      await page.getByRole('button', { name: 'Start the questionnaire' }).click();

      await page.waitForURL(/\/details$/);
      assert.equal(await page.getByLabel('First name').inputValue(), '', 'stored data is not shown');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.waitForSelector('.error-summary');
      await assertAccessible(page, 'details with errors');
      await page.getByLabel('First name').fill('Noor');
      await page.getByLabel(/Name prefix/).fill('van');
      await page.getByLabel('Last name').fill('Dijk');
      await page.getByLabel('E-mail address').fill('noor@example.nl');
      await assertAccessible(page, 'details');
      await page.getByRole('button', { name: 'Save and continue' }).click();

      await page.waitForURL(/\/gender$/);
      await assertAccessible(page, 'gender');
      await page.getByLabel('Female').check();
      await page.getByRole('button', { name: 'Save and continue' }).click();

      await page.waitForURL(/\/questions\/1$/);
      const progress = page.locator('#progress-text');
      assert.equal(await progress.textContent(), '0 of 170 statements answered');
      await page.locator('fieldset.item').first().locator('label.scale-option').nth(3).click();
      assert.equal(await progress.textContent(), '1 of 170 statements answered', 'progress updates as the candidate answers');
      await finishQuestionnaire(page, true);

      await page.waitForURL(receiver.url('/return'));
      assert.equal(await page.locator('h1').textContent(), 'Back at the ATS');
      const returnVisit = receiver.received.find((r) => r.url === '/return');
      assert.equal(returnVisit?.headers.referer, undefined, 'the token does not leak to the ReturnUrl');

      await receiver.waitForPath('/hook');
      // A second POST would come from a later look at the outbox.
      await dispatcherQuiet(server.running.deps.webhooks);
      const hooks = receiver.received.filter((r) => r.url === '/hook');
      assert.equal(hooks.length, 1);
      assert.equal(hooks[0]!.body, JSON.stringify({ Analysis_Id: a.id, External_Id: a.externalId }));
      assert.equal(hooks[0]!.headers.authorization, `Basic ${Buffer.from('ats:s3cret!').toString('base64')}`);
      assert.deepEqual(errors, [], 'no console errors (CSP violations would show here)');
      await context.close();
    });

    test('TMA312 without ReturnUrl ends on the close-tab page with an anonymous webhook', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 1, WebhookUrl: receiver.url('/anon') });
      const context = await browser.newContext({ ...PHONE, locale: 'nl-NL' });
      const page = await context.newPage();
      await page.goto(a.url);
      await page.getByRole('button', { name: 'Start de vragenlijst' }).click();
      await page.waitForURL(/\/questions\/1$/);
      assert.match((await page.locator('h1').textContent()) ?? '', /Pagina 1 van 26/);
      await finishQuestionnaire(page, false);
      await page.waitForURL(/\/done$/);
      assert.match((await page.locator('main').textContent()) ?? '', /tabblad of venster nu sluiten/);
      await assertAccessible(page, 'close tab');
      const [hook] = await receiver.waitForPath('/anon');
      assert.equal(hook!.headers.authorization, undefined);
      assert.deepEqual(JSON.parse(hook!.body), { Analysis_Id: a.id, External_Id: a.externalId });
      await context.close();
    });

    test('with JavaScript off, the plain forms take a candidate to the end', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { Gender: 0, NeedsToUpdateData: true });
      const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(a.url);
      await page.getByRole('button', { name: 'Start the questionnaire' }).click();
      await page.getByLabel('First name').fill('Sam');
      await page.getByLabel('Last name').fill('Jansen');
      await page.getByLabel('E-mail address').fill('sam@example.nl');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.getByLabel('Neutral').check();
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await finishQuestionnaire(page, false);
      await page.waitForURL(/\/done$/);
      assert.equal(await page.locator('h1').textContent(), 'Thank you');
      await context.close();
    });

    test('a candidate resumes in a fresh browser context where they left off', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
      const first = await browser.newContext(PHONE);
      const p1 = await first.newPage();
      await p1.goto(a.url);
      await p1.getByRole('button', { name: 'Start the questionnaire' }).click();
      for (let i = 0; i < 2; i++) {
        await p1.waitForSelector('fieldset.item');
        await answerPage(p1, () => 2);
        await p1.getByRole('button', { name: 'Next' }).click();
      }
      await p1.waitForURL(/\/questions\/3$/);
      const code = (await p1.locator('.personal-code strong.code').textContent())!.trim();
      await first.close();

      // Another context is asked for the personal code its first pages showed.
      const second = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const p2 = await second.newPage();
      await p2.goto(a.url);
      assert.equal(await p2.locator('h1').textContent(), 'This questionnaire was started on another device');
      await p2.getByLabel('Personal code').fill(code);
      await p2.getByRole('button', { name: 'Continue' }).click();
      await p2.waitForURL(/\/questions\/3$/);
      await p2.goto(a.url);
      assert.equal(await p2.locator('h1').textContent(), 'Welcome back');
      await assertAccessible(p2, 'resume');
      await p2.getByRole('button', { name: 'Continue' }).click();
      await p2.waitForURL(/\/questions\/3$/);
      assert.equal(await p2.locator('#progress-text').textContent(), '20 of 170 statements answered');
      await p2.getByRole('button', { name: 'Back' }).click();
      await p2.waitForURL(/\/questions\/2$/);
      assert.equal(await p2.locator('input[type=radio]:checked').count(), 10, 'earlier answers are there');
      await second.close();
    });

    test('a completed link visited again says so; unknown links get the friendly 404', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0, ReturnUrl: receiver.url('/return') });
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      await page.goto(a.url);
      await page.getByRole('button', { name: 'Start the questionnaire' }).click();
      await finishQuestionnaire(page, false);
      await page.waitForURL(receiver.url('/return'));

      await page.goto(start(a.id));
      assert.equal(await page.locator('h1').textContent(), 'Already completed');
      await assertAccessible(page, 'completed');
      assert.equal(await page.getByRole('link', { name: 'Return to the website' }).getAttribute('href'), receiver.url('/return'));

      const missing = await page.goto(start('no-such-assessment-token'));
      assert.equal(missing?.status(), 404);
      await assertAccessible(page, '404');

      // A form posted without its CSRF cookie (as from an old tab after the cookie went) gets the try-again page.
      const other = await newAssessment(server.url, creds, { AssessmentType: 0 });
      await page.goto(start(other.id));
      await context.clearCookies();
      await page.getByRole('button', { name: 'Start the questionnaire' }).click();
      assert.equal(await page.locator('h1').textContent(), 'Please try again');
      await assertAccessible(page, 'try again (403)');
      await context.close();
    });

    test('keyboard alone: TMA170 from start to finish', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { Gender: 0 });
      const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
      const page = await context.newPage();
      await page.goto(a.url);

      const tab = (want: Parameters<typeof tabTo>[1]) => tabTo(page, want);
      await tab((f) => f.tag === 'BUTTON');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/gender$/);
      await tab((f) => f.type === 'radio');
      await page.keyboard.press('Space');
      await tab((f) => f.tag === 'BUTTON');
      await page.keyboard.press('Enter');

      for (let pageNo = 1; pageNo <= 17; pageNo++) {
        await page.waitForURL(new RegExp(`/questions/${pageNo}$`));
        const chosen = await answerPageByKeyboard(page, () => 4);
        assert.equal(chosen.size, 10);
        await page.keyboard.press('Enter');
      }
      await page.waitForURL(/\/confirm$/);
      await tab((f) => f.tag === 'BUTTON' && f.value === 'finish');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/done$/);
      const status = await a.api.get(`/api/anonymous/assessment/${a.id}`);
      assert.equal(status.body.Data.Status, 'Completed');
      assert.ok(status.body.Data.Scores.length > 0);
      await context.close();
    });
  },
);
