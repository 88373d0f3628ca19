import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from '../helpers/deadline.js';
import { Worker } from 'node:worker_threads';
import PDFDocument from 'pdfkit';
import type { FontName } from '../../src/reports/fonts.js';
import { drawnLines, parsedFont, wordLayouts } from '../../src/reports/fonts.js';
import { forgetParagraphs, keptParagraphs } from '../../src/reports/pdf-lines.js';
import { reportPdf } from '../../src/reports/pdf.js';
import { inflatedStreams, readPdfPlaced, type PlacedText } from '../helpers/pdf.js';
import { reportModel as model } from '../helpers/report-model.js';
import { within } from '../helpers/ticks.js';

const FONTS: FontName[] = ['regular', 'bold', 'han', 'hangul', 'arabic', 'hebrew', 'thai'];

/** Runs `fn` while every call of `method` on each of `targets` is shown to `seen` with its arguments. */
async function watching<T>(targets: object[], method: string, seen: (args: unknown[]) => void, fn: () => Promise<T>): Promise<T> {
  const restore = targets.map((target) => {
    const t = target as Record<string, (...args: unknown[]) => unknown>;
    const original = t[method]!;
    t[method] = function (this: unknown, ...args: unknown[]) {
      seen(args);
      return original.apply(this, args);
    };
    return () => {
      t[method] = original;
    };
  });
  try {
    return await fn();
  } finally {
    for (const undo of restore) undo();
  }
}

/** The texts fontkit shapes, on every report font, while `fn` runs. */
async function recordShaping<T>(fn: () => Promise<T>): Promise<{ value: T; shaped: string[] }> {
  const shaped: string[] = [];
  const value = await watching(FONTS.map(parsedFont), 'layout', (args) => shaped.push(String(args[0])), fn);
  return { value, shaped };
}

/** The fonts a fresh thread parses to render one report for `name`. */
async function fontsParsedFor(name: string): Promise<string[]> {
  const worker = new Worker(new URL('../helpers/pdf-fonts-worker.js', import.meta.url), { workerData: name });
  try {
    const [message] = (await within(once(worker, 'message'), 60_000, 'the fonts thread')) as [{ bytes: number; fonts: string[] }];
    assert.ok(message.bytes > 1000, `a PDF of ${message.bytes} bytes`);
    return message.fonts.sort();
  } finally {
    await worker.terminate();
  }
}

/** The pieces of text a report draws for the candidate's name, right of its label (x 160). */
async function nameLine(name: string): Promise<PlacedText[]> {
  const m = model(name);
  const [page] = await readPdfPlaced(await reportPdf(m, '1 March 2026 10:00 UTC'));
  const from = page!.findIndex((p) => p.str === m.t.candidate);
  const to = page!.findIndex((p) => p.str === m.t.instrument);
  return page!.slice(from + 1, to).filter((p) => p.str !== '' && p.transform[4]! >= 160 - 0.01);
}

const forgetLayouts = () =>
  FONTS.forEach((name) => {
    wordLayouts(name).clear();
    drawnLines(name).clear();
  });

/** How many texts pdfkit's line wrapper breaks into lines while `fn` runs. */
async function countWrapped<T>(fn: () => Promise<T>): Promise<{ value: T; wrapped: number }> {
  let wrapped = 0;
  const value = await watching([PDFDocument.prototype], '_text', (args) => (wrapped += (args[3] as { width?: number } | undefined)?.width ? 1 : 0), fn);
  return { value, wrapped };
}

/** A report long enough for paragraphs to run over page breaks: 26 scales, 12 competences. */
function longModel(name: string) {
  const m = model(name);
  m.scales = Array.from({ length: 26 }, (_, k) => ({
    ...m.scales[k % 5]!,
    id: k + 1,
    name: `Scale ${k + 1}`,
    interpretation: `Scale ${k + 1}: ${'works steadily through routine tasks, and prefers clear agreements about who does what. '.repeat(1 + (k % 4))}`.trim(),
  }));
  m.competences = Array.from({ length: 12 }, (_, k) => ({ ...m.competences[k % 3]!, id: k + 1, name: `Competence ${k + 1}` }));
  return m;
}

describe('reports/pdf', { timeout: 60_000 }, () => {
  test("a second report shapes again only the candidate's name", async () => {
    forgetLayouts();
    const name = 'Ada Lovelace 李华 سارة';
    const first = await recordShaping(() => reportPdf(model(name), '1 March 2026 10:00 UTC'));
    const second = await recordShaping(() => reportPdf(model(name), '1 March 2026 10:00 UTC'));
    assert.ok(first.shaped.length > 50, `the first report shaped ${first.shaped.length} words`);
    assert.ok(
      first.shaped.some((w) => w.trim() === 'Motivation'),
      "the instrument's name is shaped once",
    );
    const others = second.shaped.map((w) => w.trim()).filter((w) => w !== '' && !name.split(' ').includes(w));
    assert.deepEqual(others, []);
    assert.ok(
      second.shaped.some((w) => w.trim() === 'Lovelace'),
      'the name is laid out for each report',
    );
  });

  test("the candidate's name stays out of the word layouts, drawn lines and paragraphs that other PDFs share", async () => {
    forgetLayouts();
    forgetParagraphs();
    await reportPdf(model('Ada Lovelace 李华 سارة'), '1 March 2026 10:00 UTC');
    const kept = FONTS.flatMap((name) => [...wordLayouts(name).keys()]);
    assert.ok(kept.length > 50, `${kept.length} words kept`);
    assert.deepEqual(
      kept.filter((w) => /Lovelace|李华|سارة/u.test(w)),
      [],
    );
    const lines = FONTS.flatMap((name) => [...drawnLines(name).keys()]);
    assert.ok(lines.length > 20, `${lines.length} lines kept`);
    assert.deepEqual(
      lines.filter((w) => /Lovelace|李华|سارة/u.test(w)),
      [],
    );
    const paragraphs = keptParagraphs();
    assert.ok(paragraphs.length > 10, `${paragraphs.length} paragraphs kept`);
    assert.deepEqual(
      paragraphs.filter((w) => /Lovelace|李华|سارة/u.test(w)),
      [],
    );
  });

  test("drawn lines are kept per font: the title among the bold font's, its subtitle among the regular's", async () => {
    forgetLayouts();
    const m = model('Ada Lovelace');
    await reportPdf(m, '1 March 2026 10:00 UTC');
    const [bold, regular] = [[...drawnLines('bold').keys()], [...drawnLines('regular').keys()]];
    assert.ok(bold.includes(m.t.title) && !regular.includes(m.t.title), `bold: ${bold.length} lines, regular: ${regular.length}`);
    assert.ok(regular.includes(m.t.confidential) && !bold.includes(m.t.confidential));
  });

  test('a report drawn from kept line breaks has the same drawing, page breaks included, as one wrapped afresh', async () => {
    forgetLayouts();
    forgetParagraphs();
    const m = longModel('Ada Lovelace');
    const first = await countWrapped(() => reportPdf(m, '1 March 2026 10:00 UTC'));
    const second = await countWrapped(() => reportPdf(m, '1 March 2026 10:00 UTC'));
    const afresh = await readPdfPlaced(first.value);
    const kept = await readPdfPlaced(second.value);
    assert.ok(afresh.length >= 3, `${afresh.length} pages`);
    assert.deepEqual(kept, afresh);
    // Byte for byte: every page's drawing operators, and the same glyphs embedded.
    const streams = inflatedStreams(first.value);
    assert.ok(streams.length >= afresh.length + 2, `${streams.length} compressed streams`);
    assert.deepEqual(inflatedStreams(second.value), streams);
    assert.ok(first.wrapped > 60, `${first.wrapped} texts wrapped in the first report`);
    // Only paragraphs that reach a page's foot go through the wrapper again.
    assert.ok(second.wrapped > 0 && second.wrapped < first.wrapped / 10, `${second.wrapped} texts wrapped in the second report`);
  });

  test('a report laid out from shared word and line layouts has the same drawing as one laid out afresh', async () => {
    forgetLayouts();
    const afreshBytes = await reportPdf(model('Ada Lovelace 李华 سارة'), '1 March 2026 10:00 UTC');
    // Warm the shared layouts with another report first, then render the same one from them.
    await reportPdf(model('Grace Hopper'), '1 March 2026 10:00 UTC');
    const sharedBytes = await reportPdf(model('Ada Lovelace 李华 سارة'), '1 March 2026 10:00 UTC');
    const afresh = await readPdfPlaced(afreshBytes);
    assert.ok(afresh.length >= 2, `${afresh.length} pages`);
    assert.deepEqual(await readPdfPlaced(sharedBytes), afresh);
    assert.deepEqual(inflatedStreams(sharedBytes), inflatedStreams(afreshBytes));
    const text = afresh
      .flat()
      .map((p) => p.str)
      .join(' ');
    assert.match(text, /Ada Lovelace/);
    assert.match(text, /Scale 3 interpretation/);
  });

  test('a label fits its box on one line: right-aligned in the chart, shrunk when too long, never wrapped', async () => {
    const long = 'An uncommonly long scale name, as a translation might make it';
    const m = model('Ada Lovelace');
    m.scales[0]!.name = long;
    const [page] = await readPdfPlaced(await reportPdf(m, '1 March 2026 10:00 UTC'));
    // The chart's labels: 152 points wide from the left margin (50), right-aligned, at 8.5 points.
    const short = page!.find((p) => p.str === 'Scale 2')!;
    assert.ok(short, 'a short scale label in the chart');
    assert.equal(short.transform[0], 8.5);
    assert.ok(Math.abs(short.transform[4]! + short.width - 202) < 0.01, `right edge at ${short.transform[4]! + short.width}`);
    // The long name, in the chart and in the table, each as one piece of text on one line.
    const whole = page!.filter((p) => p.str === long);
    assert.equal(whole.length, 2, `${whole.length} whole copies of the long name`);
    for (const p of whole) {
      assert.ok(p.transform[0]! >= 5 && p.transform[0]! < 8.5, `size ${p.transform[0]}`);
      assert.ok(p.transform[4]! >= 50 - 0.01, `starts at ${p.transform[4]}`);
    }
    const [chart, table] = whole.sort((a, b) => a.transform[0]! - b.transform[0]!);
    assert.ok(chart!.transform[4]! + chart!.width <= 202 + 0.01, `the chart's copy ends at ${chart!.transform[4]! + chart!.width}`);
    assert.ok(table!.transform[0]! > chart!.transform[0]!, 'the table has more room than the chart');
  });

  test("the candidate's name in several scripts sits on one baseline at one size, and a long one is shrunk to end at the right margin", async () => {
    const short = await nameLine('Ada 李华');
    assert.equal(short.map((p) => p.str).join(''), 'Ada 李华');
    assert.deepEqual(new Set(short.map((p) => p.transform[0])), new Set([10]), 'the size asked for');
    assert.equal(new Set(short.map((p) => p.transform[5]!.toFixed(3))).size, 1, `baselines ${short.map((p) => p.transform[5])}`);

    const long = 'Augusta Ada King, Countess of Lovelace, also known as 李华 and as Ada Lovelace of Ockham Park in Surrey';
    const pieces = await nameLine(long);
    assert.equal(pieces.map((p) => p.str).join(''), long);
    const sizes = new Set(pieces.map((p) => p.transform[0]!));
    assert.equal(sizes.size, 1, `sizes ${[...sizes]}`);
    const [size] = sizes;
    assert.ok(size! >= 5 && size! < 10, `size ${size}`);
    assert.equal(new Set(pieces.map((p) => p.transform[5]!.toFixed(3))).size, 1, `baselines ${pieces.map((p) => p.transform[5])}`);
    assert.ok(Math.abs(pieces[0]!.transform[4]! - 160) < 0.01, `starts at ${pieces[0]!.transform[4]}`);
    // A4 is 595.28 points wide, the margin 50: shrunk in proportion, the name fills its line.
    const end = pieces.at(-1)!.transform[4]! + pieces.at(-1)!.width;
    assert.ok(Math.abs(end - 545.28) < 0.5, `ends at ${end}`);
  });

  test('a name as long as the API accepts, too wide even at the smallest size, is narrowed to end at the right margin with every character kept', async () => {
    // Wide letters at the schema's limits: first and last name 100 characters each, the preposition 50.
    const longest = `${'W'.repeat(100)} ${'w'.repeat(50)} ${'M'.repeat(100)}`;
    const pieces = await nameLine(longest);
    assert.equal(pieces.map((p) => p.str).join(''), longest);
    assert.ok(
      pieces.every((p) => p.transform[3] === 5),
      'at the smallest size',
    );
    assert.ok(
      pieces.every((p) => p.transform[0]! < 5),
      'narrowed: the horizontal scale is below the size',
    );
    const end = pieces.at(-1)!.transform[4]! + pieces.at(-1)!.width;
    assert.ok(Math.abs(end - 545.28) < 0.5, `ends at ${end}`);
  });

  test('a report parses a fallback font only when the candidate particulars need one', async () => {
    assert.deepEqual(await fontsParsedFor('Ada Lovelace'), ['bold', 'regular']);
    assert.deepEqual(await fontsParsedFor('Ada 李华'), ['bold', 'han', 'regular']);
    assert.deepEqual(await fontsParsedFor('سارة'), ['arabic', 'bold', 'han', 'hangul', 'regular']);
  });
});
