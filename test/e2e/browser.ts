import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Receiver } from '../helpers/receiver.js';

/** Debian's chromium, found on PATH (CHROMIUM_PATH overrides). Missing is a failure, not a skip. */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!;
  } catch {
    throw new Error('chromium is not installed: .ci/run installs it (apt-get install -y chromium)');
  }
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // This machine's network is closed; Chromium's own background traffic only makes noise.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Chromium for one suite: `setup` runs first, then the browser launches in the suite's before hook; it closes after the suite. */
export function suiteBrowser(setup: () => Promise<void> = async () => {}): { readonly it: Browser } {
  let browser: Browser | undefined;
  before(async () => {
    await setup();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });
  return {
    get it(): Browser {
      if (!browser) throw new Error('the browser exists once the suite has started');
      return browser;
    },
  };
}

/** 360 px wide, the narrow phone the portal must work on. */
export const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/**
 * A phone-sized page in `locale`, with the console errors and failed requests it meets. Error
 * pages answer 4xx on purpose; what must not appear is a refused script, style or form.
 */
export async function watchedPhonePage(browser: Browser, locale: string) {
  const context = await browser.newContext({ ...PHONE, locale });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  return { context, page, errors };
}

/** axe-core against WCAG 2.0, 2.1 and 2.2 at levels A and AA: no violation allowed. */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const summary = result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
  assert.deepEqual(summary, [], `${label}: accessibility violations`);
  assert.ok(result.passes.length > 0, `${label}: axe ran no checks`);
}

/** Answers every statement on the current questionnaire page by clicking labels. */
export async function answerPage(page: Page, choose: (index: number) => number = (i) => (i % 5) + 1): Promise<number> {
  const groups = page.locator('fieldset.item');
  const count = await groups.count();
  for (let i = 0; i < count; i++) {
    await groups
      .nth(i)
      .locator('label.scale-option')
      .nth(choose(i) - 1)
      .click();
  }
  return count;
}

/** What has the keyboard focus: enough to tell a radio group, a button and its value apart. */
export function focused(page: Page): Promise<{ tag: string; type: string; name: string; value: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return { tag: el?.tagName ?? '', type: el?.type ?? '', name: el?.getAttribute('name') ?? '', value: el?.value ?? '' };
  });
}

/** Tabs forward until `want` matches the focused element (bounded, so a trap fails the test). */
export async function tabTo(page: Page, want: (f: Awaited<ReturnType<typeof focused>>) => boolean): Promise<Awaited<ReturnType<typeof focused>>> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (want(f)) return f;
  }
  throw new Error('focus never reached the wanted element');
}

/**
 * Answers the current questionnaire page by keyboard alone, every radio group unanswered: Tab
 * reaches each group once, Space checks its first option and each ArrowRight moves the choice one
 * point up, so `choose` returning k (1-based) takes k − 1 presses. Leaves the focus on the page's
 * first button and returns each group's name with the option chosen, in the order reached.
 */
export async function answerPageByKeyboard(page: Page, choose: (name: string) => number): Promise<Map<string, number>> {
  const chosen = new Map<string, number>();
  // More fields than a page has means focus went astray.
  for (let tabs = 0; tabs <= 40; tabs++) {
    const f = await tabTo(page, (x) => (x.type === 'radio' && !chosen.has(x.name)) || x.tag === 'BUTTON');
    if (f.tag === 'BUTTON') return chosen;
    const option = choose(f.name);
    await page.keyboard.press('Space');
    for (let k = 1; k < option; k++) await page.keyboard.press('ArrowRight');
    chosen.set(f.name, option);
  }
  throw new Error('no button after 40 fields');
}

/** The receiver plays the ATS: its ReturnUrl page answers with a page of its own, and its webhook with 200. */
export function playTheAts(receiver: Receiver): void {
  receiver.behaviour = (res, req) => {
    if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ATS</title><h1>Back at the ATS</h1>');
    else res.writeHead(200).end('ok');
  };
}
