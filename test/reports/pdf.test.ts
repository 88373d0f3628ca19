import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { FontName } from '../../src/reports/fonts.js';
import { parsedFont, wordLayouts } from '../../src/reports/fonts.js';
import { reportPdf } from '../../src/reports/pdf.js';
import { readPdfPlaced } from '../helpers/pdf.js';
import { reportModel as model } from '../helpers/report-model.js';

const FONTS: FontName[] = ['regular', 'bold', 'han', 'hangul', 'arabic', 'hebrew', 'thai'];

/** The texts fontkit shapes, on every report font, while `fn` runs. */
async function recordShaping<T>(fn: () => Promise<T>): Promise<{ value: T; shaped: string[] }> {
  const shaped: string[] = [];
  const restore = FONTS.map((name) => {
    const font = parsedFont(name) as unknown as { layout: (...args: unknown[]) => unknown };
    const original = font.layout;
    font.layout = function (this: unknown, ...args: unknown[]) {
      shaped.push(String(args[0]));
      return original.apply(this, args);
    };
    return () => {
      font.layout = original;
    };
  });
  try {
    return { value: await fn(), shaped };
  } finally {
    for (const undo of restore) undo();
  }
}

/** The fonts a fresh thread parses to render one report for `name`. */
async function fontsParsedFor(name: string): Promise<string[]> {
  const worker = new Worker(new URL('../helpers/pdf-fonts-worker.js', import.meta.url), { workerData: name });
  try {
    const [message] = (await once(worker, 'message')) as [{ bytes: number; fonts: string[] }];
    assert.ok(message.bytes > 1000, `a PDF of ${message.bytes} bytes`);
    return message.fonts.sort();
  } finally {
    await worker.terminate();
  }
}

const forgetLayouts = () => FONTS.forEach((name) => wordLayouts(name).clear());

describe('reports/pdf', { timeout: 60_000 }, () => {
  test('a second report shapes again only the candidate particulars it shows', async () => {
    forgetLayouts();
    const name = 'Ada Lovelace 李华 سارة';
    const first = await recordShaping(() => reportPdf(model(name), '1 March 2026 10:00 UTC'));
    const second = await recordShaping(() => reportPdf(model(name), '1 March 2026 10:00 UTC'));
    assert.ok(first.shaped.length > 50, `the first report shaped ${first.shaped.length} words`);
    const particulars = new Set([name, 'Motivation questionnaire (TMA170)', '1 March 2026'].flatMap((s) => s.split(' ')));
    const others = second.shaped.map((w) => w.trim()).filter((w) => w !== '' && !particulars.has(w));
    assert.deepEqual(others, []);
    assert.ok(second.shaped.some((w) => w.trim() === 'Lovelace'), 'the name is laid out for each report');
  });

  test("the candidate's name stays out of the word layouts that other PDFs share", async () => {
    forgetLayouts();
    await reportPdf(model('Ada Lovelace 李华 سارة'), '1 March 2026 10:00 UTC');
    const kept = FONTS.flatMap((name) => [...wordLayouts(name).keys()]);
    assert.ok(kept.length > 50, `${kept.length} words kept`);
    assert.deepEqual(kept.filter((w) => /Lovelace|李华|سارة/u.test(w)), []);
  });

  test('a report laid out from shared word layouts has the same text at the same places as one laid out afresh', async () => {
    forgetLayouts();
    const afresh = await readPdfPlaced(await reportPdf(model('Ada Lovelace 李华 سارة'), '1 March 2026 10:00 UTC'));
    // Warm the shared layouts with another report first, then render the same one from them.
    await reportPdf(model('Grace Hopper'), '1 March 2026 10:00 UTC');
    const shared = await readPdfPlaced(await reportPdf(model('Ada Lovelace 李华 سارة'), '1 March 2026 10:00 UTC'));
    assert.ok(afresh.length >= 2, `${afresh.length} pages`);
    assert.deepEqual(shared, afresh);
    const text = afresh.flat().map((p) => p.str).join(' ');
    assert.match(text, /Ada Lovelace/);
    assert.match(text, /Scale 3 interpretation/);
  });

  test('a report parses a fallback font only when the candidate particulars need one', async () => {
    assert.deepEqual(await fontsParsedFor('Ada Lovelace'), ['bold', 'regular']);
    assert.deepEqual(await fontsParsedFor('Ada 李华'), ['bold', 'han', 'regular']);
    assert.deepEqual(await fontsParsedFor('سارة'), ['arabic', 'bold', 'han', 'hangul', 'regular']);
  });
});
