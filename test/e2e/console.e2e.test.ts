/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { createConsoleUser } from '../console/console-helpers.js';
import { FormClient } from '../helpers/forms.js';
import { newAssessment } from '../helpers/fixtures.js';
import { assertAccessible, focused, PHONE, suiteBrowser, tabTo } from './browser.js';

const PASSWORD = 'correct horse battery';

suiteOnEachDatabase("the console's sign-in, in a real browser (chromium)", { on: 'first' }, ({ server, creds, cliEnv }) => {
  const browser = suiteBrowser();

  for (const [locale, words] of [
    ['en-GB', { email: 'Email', password: 'Password', button: 'Sign in', home: 'Signed in as', role: 'Recruiter', out: 'Sign out' }],
    ['nl-NL', { email: 'E-mail', password: 'Wachtwoord', button: 'Inloggen', home: 'Ingelogd als', role: 'Recruiter', out: 'Uitloggen' }],
  ] as const) {
    test(
      `${locale}: sign-in, home, candidate list, candidate and invite pages at 360 px have no axe-core violations, and sign-in works by keyboard without JavaScript`,
      { timeout: 120_000 },
      async () => {
        const email = `kb-${locale.toLowerCase()}@example.test`;
        const { path } = await createConsoleUser(cliEnv, creds.tenant, email);
        assert.equal((await new FormClient(server.url).submit(path, { password: PASSWORD })).status, 303);

        // axe-core runs as a script: its pages are seen with JavaScript on, the keyboard walk without.
        const context = await browser.it.newContext({ ...PHONE, locale });
        const page = await context.newPage();
        const noScript = await browser.it.newContext({ ...PHONE, locale, javaScriptEnabled: false });
        const keyboard = await noScript.newPage();
        const errors: string[] = [];
        for (const p of [page, keyboard]) {
          // A wrong password answers 401 on purpose; what must not appear is a refused style or form.
          p.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
          // A load cut short by the next navigation (a favicon, on a busy machine) is no refusal.
          p.on('requestfailed', (r) => r.failure()?.errorText !== 'net::ERR_ABORTED' && errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
        }
        try {
          await page.goto(`${server.url}/console`);
          assert.match(page.url(), /\/console\/login$/, 'signed out: the login page');
          assert.equal(await page.getByLabel(words.email, { exact: true }).count(), 1);
          assert.equal(await page.getByLabel(words.password, { exact: true }).count(), 1);
          await assertAccessible(page, `${locale} login`);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= 360, `no sideways scrolling at 360 px: ${width}`);

          await page.getByLabel(words.email, { exact: true }).fill(email);
          await page.getByLabel(words.password, { exact: true }).fill('not the password at all');
          await page.getByRole('button', { name: words.button }).click();
          await page.waitForSelector('.error-summary');
          await assertAccessible(page, `${locale} login with an error`);

          // By keyboard, with JavaScript off: Tab to each field, type, Enter.
          await keyboard.goto(`${server.url}/console/login`);
          await tabTo(keyboard, (f) => f.name === 'email');
          await keyboard.keyboard.type(email);
          await tabTo(keyboard, (f) => f.name === 'password');
          await keyboard.keyboard.type(PASSWORD);
          const button = await tabTo(keyboard, (f) => f.tag === 'BUTTON');
          assert.equal(button.type, 'submit');
          await Promise.all([keyboard.waitForURL(/\/console$/), keyboard.keyboard.press('Enter')]);
          const main = (await keyboard.locator('main').innerText()).replace(/\s+/g, ' ');
          assert.ok(main.includes(`${words.home} ${email}`), main);
          assert.ok(main.includes(words.role), main);

          // The same home page, with JavaScript on for axe: its own session.
          await page.getByLabel(words.email, { exact: true }).fill(email);
          await page.getByLabel(words.password, { exact: true }).fill(PASSWORD);
          await Promise.all([page.waitForURL(/\/console$/), page.getByRole('button', { name: words.button }).click()]);
          await assertAccessible(page, `${locale} home`);
          // The candidate list, with a row in it.
          const listed = await newAssessment(server.url, creds, {}, { FirstName: 'Anna', LastName: 'Axe' });
          await page.goto(`${server.url}/console/candidates`);
          assert.ok((await page.locator('main').innerText()).includes('Axe'), 'a row listed');
          await assertAccessible(page, `${locale} candidate list`);
          // The candidate's page with its action forms, and the invite form, empty and with its errors.
          await page.goto(`${server.url}/console/candidates/${encodeURIComponent(listed.externalId)}`);
          assert.ok((await page.locator('main').innerText()).includes(listed.externalId), "the candidate's page");
          await assertAccessible(page, `${locale} candidate page`);
          await page.goto(`${server.url}/console/invite`);
          await assertAccessible(page, `${locale} invite form`);
          await Promise.all([page.waitForSelector('.error-summary'), page.locator('main button[type="submit"]').click()]);
          await assertAccessible(page, `${locale} invite form with errors`);

          await tabTo(keyboard, (f) => f.tag === 'BUTTON');
          assert.equal((await focused(keyboard)).tag, 'BUTTON');
          await Promise.all([keyboard.waitForURL(/\/console\/login\?done=signed-out$/), keyboard.keyboard.press('Enter')]);
          await keyboard.goto(`${server.url}/console`);
          assert.match(keyboard.url(), /\/console\/login$/, 'signed out for good');
          assert.equal(await keyboard.getByRole('button', { name: words.out }).count(), 0);
          assert.deepEqual(errors, []);
        } finally {
          await context.close();
          await noScript.close();
        }
      },
    );
  }

  test('the language switcher turns the sign-in page to Dutch and back', { timeout: 60_000 }, async () => {
    const context = await browser.it.newContext({ ...PHONE, locale: 'en-GB' });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/console/login`);
      await page.getByRole('link', { name: 'Nederlands' }).click();
      assert.equal(await page.getByRole('button', { name: 'Inloggen' }).count(), 1);
      assert.equal(await page.locator('html').getAttribute('lang'), 'nl');
      await page.getByRole('link', { name: 'English' }).click();
      assert.equal(await page.getByRole('button', { name: 'Sign in' }).count(), 1);
    } finally {
      await context.close();
    }
  });
});
