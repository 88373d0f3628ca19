import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FontName } from '../../src/reports/fonts.js';
import { parsedFont, wordLayouts } from '../../src/reports/fonts.js';
import type { ReportModel } from '../../src/reports/model.js';
import { reportPdf } from '../../src/reports/pdf.js';
import { REPORT_TEXTS } from '../../src/reports/texts.js';
import { readPdfPlaced } from '../helpers/pdf.js';

const FONTS: FontName[] = ['regular', 'bold', 'han', 'hangul', 'arabic', 'hebrew', 'thai'];

/** A report of five scales, with a name in Latin, Han and Arabic script so fallback fonts draw too. */
function model(name: string): ReportModel {
  const t = REPORT_TEXTS.en;
  const scales = [1, 2, 3, 4, 5].map((i) => ({
    id: i,
    code: `S${i}`,
    name: `Scale ${i}`,
    description: '',
    raw: 1 + i * 0.7,
    sten: 2 * i - 1,
    percentile: 20 * i - 10,
    band: i < 2 ? ('low' as const) : i > 4 ? ('high' as const) : ('average' as const),
    interpretation: `Scale ${i} interpretation: works steadily through routine tasks, and prefers clear agreements about who does what.`,
  }));
  return {
    lang: 'en',
    t,
    candidateName: name,
    instrumentName: 'Motivation questionnaire (TMA170)',
    completedOn: '1 March 2026',
    norm: { normed: true, line: 'Working population (1,000 people)', illustrative: false },
    scales,
    competences: scales.slice(0, 3).map(({ band: _band, interpretation: _interpretation, ...s }) => ({ ...s, name: `Competence ${s.id}` })),
    consistency: t.consistency(0.82),
    flags: [{ flag: 'Speeding', text: t.flags.Speeding }],
  };
}

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
});
