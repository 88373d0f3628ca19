/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT } from '../../src/platform/paths.js';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { midRankAt, stenOfShare } from '../helpers/norm-oracle.js';
import { readPdf, readPdfPlaced } from '../helpers/pdf.js';
import { answerPageByKeyboard, assertAccessible, launch, PHONE, tabTo, watchedPhonePage } from './browser.js';

type Lang = 'en' | 'nl';
interface SpiFile {
  responseScale: { min: number; max: number; labels: Record<Lang, string[]> };
  languages: { translations: { nl: { note: Record<Lang, string> } } };
  scales: Array<{ id: string; number: number; name: Record<Lang, string>; domain?: string }>;
  items: Array<{ id: string; scale: string; keying: 'positive' | 'negative'; alsoScales?: Array<{ scale: string; keying: 'positive' | 'negative' }> }>;
}
// The oracle reads the content files themselves, not src/'s loader.
const spi = JSON.parse(readFileSync(join(ROOT, 'content', 'instruments', 'spi.json'), 'utf8')) as SpiFile;
const norms = JSON.parse(readFileSync(join(ROOT, 'content', 'norms', 'spi-sapa.json'), 'utf8')) as {
  scales: Record<string, { distribution: Array<[number, number]> }>;
};
const { min, max } = spi.responseScale;
const DUTCH_NOTE = spi.languages.translations.nl.note;
const PAGES = 8;
const PER_PAGE = 15;

/** A fixed candidate: each answer 1–6 by the item's place in spi.json, so the scales land at different interior points. */
const place = new Map(spi.items.map((item, i) => [`a_${item.id}`, i]));
function answer(name: string): number {
  const i = place.get(name);
  assert.ok(i !== undefined, `${name} is an SPI item`);
  return min + ((i * 5 + Math.floor(i / 7)) % (max - min + 1));
}

/**
 * Each scale's raw score worked out from the answers given and spi.json's keys: the mean of the
 * answers to every item keyed on it (its own scale and `alsoScales`), a negatively keyed one as
 * min + max − answer, to two decimals.
 */
function expectedMeans(given: ReadonlyMap<string, number>): Map<string, number> {
  const keyed = new Map<string, number[]>(spi.scales.map((s) => [s.id, []]));
  for (const item of spi.items) {
    const a = given.get(`a_${item.id}`);
    assert.ok(a !== undefined, `${item.id} was answered`);
    for (const k of [{ scale: item.scale, keying: item.keying }, ...(item.alsoScales ?? [])])
      keyed.get(k.scale)!.push(k.keying === 'negative' ? min + max - a : a);
  }
  return new Map([...keyed].map(([id, xs]) => [id, Math.round((xs.reduce((x, y) => x + y, 0) / xs.length) * 100) / 100]));
}

/** The report's rows, domain then its narrow scales: [name, narrow] in spi.json's order. */
const grouped = (lang: Lang) =>
  spi.scales
    .filter((d) => !d.domain)
    .flatMap((d) => [[d.name[lang], false] as const, ...spi.scales.filter((n) => n.domain === d.id).map((n) => [n.name[lang], true] as const)]);

const words = (x: string) => x.replace(/\s+/g, ' ').trim();

suiteOnEachDatabase(
  'the SPI in a real browser (chromium, 360 px, keyboard alone)',
  { on: 'first', tenant: { portalDomain: ({ url }) => url } },
  ({ server, creds }) => {
    let browser: Browser;
    before(async () => {
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
    });

    /** The first statement's six options, as a 360 px screen lays them out: each label whole, inside the screen, a full-size target. */
    async function assertSixPointsFit(page: Page, lang: Lang): Promise<void> {
      const options = await page
        .locator('fieldset.item')
        .first()
        .locator('label.scale-option')
        .evaluateAll((labels) =>
          labels.map((l) => {
            const r = l.getBoundingClientRect();
            return { text: l.textContent?.trim(), left: r.left, right: r.right, height: r.height, clipped: l.scrollWidth > l.clientWidth };
          }),
        );
      assert.deepEqual(
        options.map((o) => o.text),
        spi.responseScale.labels[lang],
        `${lang}: the six labels of spi.json, in order`,
      );
      for (const o of options) {
        assert.ok(o.left >= 0 && o.right <= 360, `${o.text}: inside the screen (${o.left}–${o.right})`);
        assert.ok(o.height >= 44, `${o.text}: a 44 px target (${o.height})`);
        assert.ok(!o.clipped, `${o.text}: not clipped`);
      }
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360, 'no horizontal scrolling at 360 px');
    }

    /**
     * From the start page to the end by keyboard alone: Tab, Space, arrows, Enter. `check` runs on
     * the start page, the first questionnaire page and the confirmation. Returns the answers given.
     */
    async function walk(page: Page, lang: Lang, check: (what: string) => Promise<void>): Promise<Map<string, number>> {
      await check('start');
      await tabTo(page, (f) => f.tag === 'BUTTON');
      await page.keyboard.press('Enter');
      const given = new Map<string, number>();
      for (let n = 1; n <= PAGES; n++) {
        await page.waitForURL(new RegExp(`/questions/${n}$`));
        if (n === 1) {
          assert.match((await page.locator('h1').textContent()) ?? '', lang === 'nl' ? /Pagina 1 van 8/ : /Page 1 of 8/);
          await assertSixPointsFit(page, lang);
          await check('questions');
        }
        const chosen = await answerPageByKeyboard(page, answer);
        assert.equal(chosen.size, PER_PAGE, `page ${n}: every statement reached by Tab`);
        for (const [name, value] of chosen) given.set(name, value);
        await page.keyboard.press('Enter');
      }
      await page.waitForURL(/\/confirm$/);
      await check('confirm');
      await tabTo(page, (f) => f.tag === 'BUTTON' && f.value === 'finish');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/done$/);
      assert.equal(given.size, spi.items.length, 'all 120 statements answered');
      return given;
    }

    /** The results endpoint's body, with its raw means checked against the answers given. */
    async function vendorResult(a: Awaited<ReturnType<typeof newAssessment>>, culture: string, given: ReadonlyMap<string, number>) {
      const res = await a.api.get(`/api/candidateanalysisresult/${a.id}/${culture}`);
      assert.equal(res.status, 200);
      const r = res.body;
      assert.equal(r.Done, true);
      const expected = expectedMeans(given);
      assert.deepEqual(
        r.NormScoreScales.map((x: { ID: number; ExternalCode: string; Value: number }) => [x.ID, x.ExternalCode, x.Value]),
        spi.scales.map((s) => [s.number, s.id.toUpperCase().replace(/-/g, '_'), expected.get(s.id)]),
        'the 31 raw means, as worked out from the answers',
      );
      return r;
    }

    /** The report's PDF from the page's own download link. */
    async function pdfOf(page: Page, context: BrowserContext): Promise<Buffer> {
      const href = await page.locator('a.pdf-link').getAttribute('href');
      assert.ok(href, 'the report page links its PDF');
      const res = await context.request.get(new URL(href, page.url()).href);
      assert.equal(res.status(), 200);
      assert.equal(res.headers()['content-type'], 'application/pdf');
      return res.body();
    }

    test(
      'in English: 120 statements on six points by keyboard; the vendor lists, the report page and its PDF agree with means worked out from the answers',
      { timeout: 240_000 },
      async () => {
        const a = await newAssessment(server.url, creds, { AssessmentType: 2 }, { FirstName: 'Ines', Preposition: '', LastName: 'Kramer' });
        const { context, page, errors } = await watchedPhonePage(browser, 'en-GB');
        await page.goto(a.url);
        const given = await walk(page, 'en', async (what) => {
          await assertAccessible(page, what);
          if (what !== 'questions') return;
          // Next with nothing answered, by keyboard: the error state, its focus and its accessibility.
          await tabTo(page, (f) => f.tag === 'BUTTON');
          await page.keyboard.press('Enter');
          await page.waitForSelector('.error-summary');
          assert.equal(await page.evaluate(() => document.activeElement?.className), 'error-summary', 'focus moves to the error summary');
          assert.equal(await page.locator('.error-summary li').count(), PER_PAGE);
          await assertAccessible(page, 'questions with errors');
        });

        // The vendor's lists: 31 scales with raw mean, sten and percentile; no Aptitude (competence) lists for the SPI.
        const r = await vendorResult(a, 'en-GB', given);
        assert.equal(r.NormGroup.Id, 'spi-sapa-2.1.0');
        assert.match(r.NormGroup.Source, /web volunteers .* not job applicants/);
        const stens = new Set<number>();
        for (const [i, raw] of r.NormScoreScales.entries()) {
          const s = spi.scales[i]!;
          const p = midRankAt(norms.scales[s.id]!.distribution, raw.Value);
          assert.deepEqual([r.NormScores[i].ID, r.NormScores[i].Value], [s.number, stenOfShare(p)], `${s.id}: sten at ${raw.Value}`);
          assert.deepEqual([r.NormScoresPercentage[i].ID, r.NormScoresPercentage[i].Value], [s.number, Math.round(p * 100)], `${s.id}: percentile`);
          assert.equal(raw.Description, s.name.en);
          stens.add(r.NormScores[i].Value);
        }
        assert.ok(stens.size >= 4, `stens of several values (${[...stens]})`);
        // The lists above hold 31 each in this same body: these three are empty because the SPI has no competences.
        assert.deepEqual([r.AptitudeScoresScale, r.AptitudeScores, r.AptitudeScoresPercentage], [[], [], []]);
        assert.equal(r.Note, null, 'taken in English: nothing to note');

        // The report page, from the ReportUrl, at 360 px.
        const byName = new Map(r.NormScoreScales.map((x: { Description: string }, i: number) => [x.Description, i]));
        await page.goto(`${r.ReportUrl}&lang=en`);
        await assertAccessible(page, 'report');
        const rows = await page
          .locator('table')
          .first()
          .locator('tbody tr')
          .evaluateAll((trs) =>
            trs.map((tr) => ({
              narrow: tr.classList.contains('narrow'),
              indent: parseFloat(getComputedStyle(tr.querySelector('th')!).paddingLeft),
              cells: Array.from(tr.querySelectorAll('th, td'), (c) => c.textContent?.trim() ?? ''),
            })),
          );
        assert.deepEqual(
          rows.map((row) => [row.cells[0]!.replace(/\s*†[\s\S]*$/, ''), row.narrow]),
          grouped('en'),
          'each domain, then its narrow scales',
        );
        const domainIndent = rows.find((row) => !row.narrow)!.indent;
        assert.ok(
          rows.every((row) => row.narrow === row.indent > domainIndent),
          'narrow scales are indented under their domain',
        );
        for (const row of rows) {
          const i = byName.get(row.cells[0]!.replace(/\s*†[\s\S]*$/, '')) as number;
          assert.deepEqual(
            row.cells.slice(1, 4),
            [String(r.NormScores[i].Value), String(r.NormScoresPercentage[i].Value), r.NormScoreScales[i].Value.toFixed(2)],
            `${row.cells[0]}: sten, percentile and raw as the vendor lists give them`,
          );
        }
        assert.match(words((await page.locator('.facts').textContent()) ?? ''), /SAPA web volunteers.*web volunteers .* not job applicants/);
        assert.equal(await page.locator('.notice.translation').count(), 0, 'taken in English: no translation note');
        assert.deepEqual(errors, [], 'no console errors (CSP violations would show here)');

        // Its PDF: pieces of text on one baseline make a line; a table row is a scale's name, sten, percentile and raw.
        const placed = await readPdfPlaced(await pdfOf(page, context));
        const lines = placed.flatMap((pieces) => {
          const byY = new Map<number, Array<{ x: number; str: string }>>();
          for (const p of pieces.filter((piece) => piece.str.trim())) {
            const y = Math.round(p.transform[5]!);
            byY.set(y, [...(byY.get(y) ?? []), { x: p.transform[4]!, str: p.str.trim() }]);
          }
          // The † after an adverse scale's name is the fairness mark, not part of the name.
          return [...byY.values()].map((line) =>
            line
              .sort((x, y) => x.x - y.x)
              .map((p) => p.str.replace(/\s*†$/, ''))
              .filter(Boolean),
          );
        });
        const tableRows = lines.filter((l) => byName.has(l[0]!) && l.length >= 4 && /^\d+$/.test(l[1]!) && /^\d\.\d\d$/.test(l[3]!));
        assert.deepEqual(
          tableRows.map((l) => l.slice(0, 4)),
          rows.map((row) => [row.cells[0]!.replace(/\s*†[\s\S]*$/, ''), ...row.cells.slice(1, 4)]),
          'the PDF table says what the page says',
        );
        assert.match(
          words(
            placed
              .flat()
              .map((p) => p.str)
              .join(' '),
          ),
          /web volunteers .* not job applicants/,
        );
        await context.close();
      },
    );

    test(
      'in Dutch, without JavaScript: 128 statements by keyboard; Note, the report page and its PDF carry the translation note, and the vendor lists no sten',
      { timeout: 240_000 },
      async () => {
        const a = await newAssessment(server.url, creds, { AssessmentType: 2 });
        const context = await browser.newContext({ ...PHONE, locale: 'nl-NL', javaScriptEnabled: false });
        const page = await context.newPage();
        // axe needs JavaScript: it checks the same pages, with the same cookies, in a second context.
        const checker = async (what: string) => {
          const twin = await browser.newContext({ ...PHONE, locale: 'nl-NL', storageState: await context.storageState() });
          const view = await twin.newPage();
          await view.goto(page.url());
          await assertAccessible(view, `${what} (nl)`);
          await twin.close();
        };
        await page.goto(a.url);
        const given = await walk(page, 'nl', checker);

        const r = await vendorResult(a, 'nl-NL', given);
        assert.ok(r.Note.includes(DUTCH_NOTE.en), r.Note);
        // Normed on the English sample the note speaks of, so kept out of the vendor's sten lists (test/api/spi-translated-norms).
        assert.equal(r.NormGroup.Id, 'spi-sapa-2.1.0');
        assert.equal(r.NormScores.length, 0, 'a translation compared with English norms: no stens in the vendor lists');
        await page.goto(`${r.ReportUrl}&lang=nl`);
        assert.equal(words((await page.locator('.notice.translation').textContent()) ?? ''), DUTCH_NOTE.nl);
        await checker('report');
        const pdf = await readPdf(await pdfOf(page, context));
        assert.ok(words(pdf.text.join(' ')).includes(words(DUTCH_NOTE.nl).slice(0, 60)), 'the PDF carries the note');
        await context.close();
      },
    );
  },
);
