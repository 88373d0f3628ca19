/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Browser } from 'playwright-core';
import { darken } from '../../src/domain/colour.js';
import { runCli } from '../helpers/cli.js';
import { newAssessment } from '../helpers/fixtures.js';
import { eventually } from '../helpers/receiver.js';
import { authHeaders, request } from '../helpers/http.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { answerPage, assertAccessible, launch, PHONE } from './browser.js';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const COLOUR = '#0b5394';

suiteOnEachDatabase(
  "the portal's own face, in a real browser (chromium)",
  { on: 'first', tenant: { portalDomain: ({ url }) => url } },
  ({ server, creds, cliEnv }) => {
    let browser: Browser;
    before(async () => {
      const logo = join(server.dataDir, 'logo.png');
      writeFileSync(logo, PNG);
      const r = await runCli(
        [
          'portal',
          'set',
          '--key',
          creds.apiKeyId,
          '--name',
          'Gemeente Voorbeeld',
          '--logo',
          logo,
          '--colour',
          COLOUR,
          '--privacy-url',
          'https://voorbeeld.example/privacy',
          '--contact',
          'werken@voorbeeld.example',
        ],
        cliEnv,
      );
      assert.equal(r.code, 0, r.stderr);
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
    });

    test('the start page names the organisation, shows its logo and colour, says who sees the results and for how long, and links the privacy statement', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { Gender: 0 });
      const context = await browser.newContext({ ...PHONE, locale: 'nl-NL' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(a.url);
      assert.match((await page.locator('main').textContent()) ?? '', /Gemeente Voorbeeld heeft u uitgenodigd/);
      assert.match((await page.locator('main').textContent()) ?? '', /worden ingezien door Gemeente Voorbeeld/);
      assert.match((await page.locator('main').textContent()) ?? '', /180 dagen/);
      assert.equal(
        await page.getByRole('link', { name: 'Lees hoe er met uw gegevens wordt omgegaan' }).getAttribute('href'),
        'https://voorbeeld.example/privacy',
      );
      assert.equal(await page.locator('header .brand').textContent(), 'Gemeente Voorbeeld');
      assert.equal(await page.locator('img.logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 1, 'the logo loads');
      const header = await page.locator('.site-header').evaluate((el) => getComputedStyle(el).backgroundColor);
      const dark = darken(COLOUR);
      assert.equal(
        header,
        `rgb(${parseInt(dark.slice(1, 3), 16)}, ${parseInt(dark.slice(3, 5), 16)}, ${parseInt(dark.slice(5, 7), 16)})`,
        'the colour is applied',
      );
      assert.match((await page.locator('footer').textContent()) ?? '', /werken@voorbeeld\.example/);
      await assertAccessible(page, 'branded start');
      assert.deepEqual(errors, [], 'the logo and the theme load under the CSP');

      // The gender page says why it asks and takes "prefer not to say".
      await page.getByRole('button', { name: 'Start de vragenlijst' }).click();
      await page.waitForURL(/\/gender$/);
      assert.match((await page.locator('main').textContent()) ?? '', /geen rol in hoe uw antwoorden worden gescoord/);
      await assertAccessible(page, 'gender');
      await page.getByLabel('Zeg ik liever niet').check();
      await page.getByRole('button', { name: 'Opslaan en verder' }).click();
      await page.waitForURL(/\/questions\/1$/);
      await context.close();
      const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(status.Status, 'Started');
    });

    test('the last page asks for confirmation on the server, without JavaScript, and Back returns to the statements', async () => {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1024, height: 900 } });
      const page = await context.newPage();
      await page.goto(a.url);
      await page.getByRole('button', { name: 'Start the questionnaire' }).click();
      for (let n = 1; n <= 17; n++) {
        await page.waitForURL(new RegExp(`/questions/${n}$`));
        await answerPage(page);
        await page.getByRole('button', { name: n === 17 ? 'Finish' : 'Next' }).click();
      }
      await page.waitForURL(/\/confirm$/);
      assert.match((await page.locator('main').textContent()) ?? '', /answered all 170 statements/);
      // axe needs JavaScript; the confirm page is checked with it in portal.e2e.
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Status, 'Started', 'nothing is final yet');
      await page.getByRole('button', { name: 'Back to the statements' }).click();
      await page.waitForURL(/\/questions\/17$/);
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.waitForURL(/\/confirm$/);
      await page.getByRole('button', { name: 'Yes, finish' }).click();
      await page.waitForURL(/\/done$/);
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Status, 'Completed');
      await context.close();
    });

    test('the expired and the cancelled pages name the organisation and its contact', async () => {
      // Three seconds leave a busy machine room to create it before its expiry; the pages are asked for once the clock has passed it.
      const expiresAt = Date.now() + 3_000;
      const expiring = await newAssessment(server.url, creds, { ExpiresAt: new Date(expiresAt).toISOString() });
      const cancelled = await newAssessment(server.url, creds);
      const del = await request(`${server.url}/api/anonymous/assessment/${cancelled.id}`, { method: 'DELETE', headers: authHeaders(creds) });
      assert.equal(del.status, 200);
      await eventually(async () => (Date.now() > expiresAt + 100 ? true : undefined), 10_000, 'the expiry passed');
      const context = await browser.newContext({ ...PHONE, locale: 'en-GB' });
      const page = await context.newPage();
      for (const [a, heading, text] of [
        [expiring, 'This link has expired', 'ask Gemeente Voorbeeld for a new link'],
        [cancelled, 'This questionnaire was withdrawn', 'Gemeente Voorbeeld has withdrawn this questionnaire'],
      ] as const) {
        const res = await page.goto(a.url);
        assert.equal(res?.status(), 410);
        assert.equal(await page.locator('h1').textContent(), heading);
        assert.match((await page.locator('main').textContent()) ?? '', new RegExp(text));
        assert.match((await page.locator('main').textContent()) ?? '', /werken@voorbeeld\.example/);
        await assertAccessible(page, heading);
      }
      await context.close();
    });
  },
);
