import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

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

/** 360 px wide, the narrow phone the portal must work on. */
export const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

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
