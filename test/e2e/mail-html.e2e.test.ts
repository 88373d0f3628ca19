/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { renderMail } from '../../src/mail/templates.js';
import { describe, test } from '../helpers/deadline.js';
import { instruments } from '../helpers/results.js';
import { assertAccessible, launch } from './browser.js';

const LINK = 'https://portal.voorbeeld.example/anonymous/analyse/start/0123456789abcdef';
// Written out, not formatted here: the oracle is what a reader should see.
const EXPIRY = { en: '4 March 2031', nl: '4 maart 2031' } as const;
const OPEN = { en: 'Start the questionnaire', nl: 'Begin met de vragenlijst' } as const;

// The HTML the mailer sends (renderMail), opened in chromium as a mail client would show it. No
// server: the words and the markup are the template's, and one browser serves every case.
describe('the invitation and reminder HTML, in a real browser (chromium)', () => {
  let browser: Browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  for (const language of ['en', 'nl'] as const) {
    for (const kind of ['invitation', 'reminder'] as const) {
      test(`${kind} [${language}]: no axe violation (WCAG 2.2 AA), and without images the text carries the organisation, the link and the expiry`, async () => {
        const mail = renderMail({
          kind,
          language,
          candidate: { first_name: 'Ada', preposition: 'van', last_name: 'Dijk' },
          organisation: 'Gemeente Voorbeeld',
          logoCid: 'logo@assay',
          instrument: instruments.get(0)!,
          link: LINK,
          expiresAt: '2031-03-04T10:00:00Z',
          privacyUrl: 'https://voorbeeld.example/privacy',
          contactEmail: 'werken@voorbeeld.example',
        });
        // Images blocked, as many mail clients start: the cid: logo cannot load either way.
        const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
        await context.route('**/*', (route) => route.abort());
        const page = await context.newPage();
        await page.setContent(mail.html);
        await assertAccessible(page, `${kind} ${language}`);

        assert.equal(await page.locator('html').getAttribute('lang'), language);
        const images = await page
          .locator('img')
          .evaluateAll((imgs: HTMLImageElement[]) => imgs.map((i) => ({ alt: i.alt, loaded: i.complete && i.naturalWidth > 0 })));
        assert.equal(images.length, 1, 'the logo is there (a positive control for the alt check)');
        assert.equal(images[0]!.loaded, false, 'the logo did not load');
        assert.match(images[0]!.alt, /Gemeente Voorbeeld/, 'the logo says whose it is');

        // What is read with the images gone: the text alone, alt text left out.
        const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
        assert.ok(text.includes('Gemeente Voorbeeld'), 'the organisation');
        assert.ok(text.includes(EXPIRY[language]), `the expiry date (${EXPIRY[language]}) in: ${text}`);
        assert.ok(text.includes(LINK), 'the link, written out');
        assert.ok(text.includes('Ada van Dijk'), 'the candidate');
        const button = page.getByRole('link', { name: OPEN[language], exact: true });
        assert.equal(await button.getAttribute('href'), LINK, 'the link says where it leads');
        assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), mail.subject);
        await context.close();
      });
    }
  }
});
