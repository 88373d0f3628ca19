import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/deadline.js';
import fc from 'fast-check';
import { pageCount, pageItems } from '../../../src/measurement/instruments/flow.js';
import { loadInstruments } from '../../../src/measurement/instruments/load.js';
import type { Instrument } from '../../../src/measurement/instruments/types.js';
import { BUILT_IN_CONTENT_DIR } from '../../../src/platform/paths.js';
import { questionsPage } from '../../../src/portal/views/questions.js';

const tma170 = loadInstruments(BUILT_IN_CONTENT_DIR).get(0)!;
const { min, max } = tma170.responseScale;

function render(instrument: Instrument, page: number, answers: Map<string, number>, lang: 'nl' | 'en' = 'en', missing = new Set<string>()): string {
  const items = pageItems(instrument, page);
  return questionsPage(
    { lang, path: '/p' },
    {
      instrument,
      page,
      pages: pageCount(instrument),
      items,
      firstNumber: (page - 1) * instrument.itemsPerPage + 1,
      answers,
      answeredTotal: answers.size,
      missing,
      action: '/p',
      csrf: 'token',
    },
  ).value;
}

/** Each item's checked value as the markup says, or undefined; every item's options all present. */
function checkedIn(markup: string, instrument: Instrument, page: number): Map<string, number | undefined> {
  const out = new Map<string, number | undefined>();
  for (const item of pageItems(instrument, page)) {
    const options = [...markup.matchAll(new RegExp(`<input type="radio" name="a_${item.id}" value="(\\d+)"( checked)?`, 'g'))];
    assert.equal(options.length, max - min + 1, `every option of ${item.id}`);
    const checked = options.filter((o) => o[2]);
    assert.ok(checked.length <= 1, `at most one option of ${item.id} checked`);
    out.set(item.id, checked[0] ? Number(checked[0][1]) : undefined);
  }
  return out;
}

describe('questionsPage: item markup made once per item and language, answers placed per page', () => {
  test('whatever the answers, rendered one after another, each page checks exactly its own answers', () => {
    const pages = pageCount(tma170);
    const answersOnPage = (page: number) => fc.tuple(...pageItems(tma170, page).map(() => fc.option(fc.integer({ min, max }), { nil: undefined })));
    const arb = fc
      .integer({ min: 1, max: pages })
      .chain((page) => fc.record({ page: fc.constant(page), values: answersOnPage(page), lang: fc.constantFrom('nl' as const, 'en' as const) }));
    fc.assert(
      fc.property(arb, ({ page, values, lang }) => {
        const items = pageItems(tma170, page);
        const answers = new Map<string, number>();
        items.forEach((item, i) => values[i] !== undefined && answers.set(item.id, values[i]!));
        const seen = checkedIn(render(tma170, page, answers, lang), tma170, page);
        for (const item of items) assert.equal(seen.get(item.id), answers.get(item.id), item.id);
      }),
      { numRuns: 300 },
    );
  });

  test('each language keeps its own texts', () => {
    const en = render(tma170, 1, new Map(), 'en');
    const nl = render(tma170, 1, new Map(), 'nl');
    const item = pageItems(tma170, 1)[0]!;
    assert.ok(en.includes(item.text.en) && !en.includes(`>${item.text.nl}<`));
    assert.ok(nl.includes(item.text.nl) && !nl.includes(`>${item.text.en}<`));
  });

  test('an item marked missing gets its error, and an item whose text holds a NUL is still whole and checked right', () => {
    const items = pageItems(tma170, 2);
    const odd: Instrument = { ...tma170, items: tma170.items.map((it) => (it.id === items[1]!.id ? { ...it, text: { nl: 'a\u0000b', en: 'a\u0000b' } } : it)) };
    const answers = new Map([[items[1]!.id, max]]);
    const markup = render(odd, 2, answers, 'en', new Set([items[0]!.id]));
    assert.match(markup, new RegExp(`id="err-${items[0]!.id}"`));
    assert.ok(markup.includes('a\u0000b'));
    const seen = checkedIn(markup, odd, 2);
    assert.equal(seen.get(items[1]!.id), max);
    assert.equal(seen.get(items[0]!.id), undefined);
  });
});
