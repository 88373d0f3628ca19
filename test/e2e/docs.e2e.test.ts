/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Browser, Page } from 'playwright-core';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { launch } from './browser.js';

/**
 * Console errors and warnings, uncaught exceptions, and failed or refused requests of a page,
 * except the HTTP status of a page that is meant to be a 404 (Chromium logs that as an error).
 */
function watch(page: Page, expected404?: string): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    if (expected404 && m.text().startsWith('Failed to load resource: the server responded with a status of 404') && m.location().url === expected404) return;
    problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && r.url() !== expected404 && problems.push(`${r.status()}: ${r.url()}`));
  return problems;
}

suiteOnEachDatabase('/docs and the front door in a real browser (chromium)', { on: 'first' }, ({ server, creds }) => {
  let browser: Browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test("/docs is Assay's: title, logo, the description's sections, and no console error under its CSP", async () => {
    const page = await browser.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    assert.equal(await page.title(), 'Assay API');
    const logo = await page.locator('.topbar-wrapper img').getAttribute('src');
    assert.match(logo ?? '', /\.svg$|^data:image\/svg\+xml/);
    for (const heading of ['Authentication', 'Errors', 'Webhooks', 'Extensions beyond the original specification']) {
      assert.equal(await page.locator('.info h2', { hasText: heading }).count(), 1, heading);
    }
    // The probes are open; an API operation shows its lock.
    assert.equal(await page.locator('#operations-Operations-get_healthz .authorization__btn').count(), 0);
    assert.ok((await page.locator('.opblock-summary .authorization__btn').count()) > 5);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('"Try it out" works once both credentials are given in Authorize', async () => {
    const { externalId } = await newAssessment(server.url, creds);
    const page = await browser.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });

    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input[type=text]').first().fill(creds.username);
    await dialog.locator('input[type=password]').first().fill(creds.password);
    await dialog.locator('input[type=text]').last().fill(creds.apiKey);
    // Each scheme has its Authorize button, which turns into Logout once clicked.
    for (let i = 0; i < 2; i++) await dialog.locator('button.modal-btn.auth.authorize').first().click();
    assert.equal(await dialog.locator('button.modal-btn.auth.logout, button:has-text("Logout")').count(), 2, 'both schemes authorized');
    await dialog.locator('button.btn-done, button.close-modal').first().click();

    const operation = page.locator('.opblock-get', { has: page.locator('[data-path="/api/anonymous/candidate/{ExternalId}"]') });
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('input[placeholder="ExternalId"]').fill(externalId);
    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    assert.equal((await status.innerText()).trim(), '200');
    assert.match(await operation.locator('.live-responses-table .highlight-code').first().innerText(), new RegExp(externalId));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the front door and an unknown path are pages for a browser, with no console error', async () => {
    const page = await browser.newPage();
    const problems = watch(page, `${server.url}/no/such/page`);
    const front = await page.goto(`${server.url}/`);
    assert.equal(front?.status(), 200);
    assert.equal(await page.locator('h1').innerText(), 'Assay candidate assessments');
    assert.deepEqual(await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), ['/docs', '/openapi.json', '/healthz']);
    const missing = await page.goto(`${server.url}/no/such/page`);
    assert.equal(missing?.status(), 404);
    assert.equal(await page.locator('h1').innerText(), 'Page not found');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
