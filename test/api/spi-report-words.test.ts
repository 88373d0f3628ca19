import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders, type Credentials } from '../helpers/http.js';
import { readPdf, readPdfPlaced } from '../helpers/pdf.js';
import { runCli } from '../helpers/cli.js';
import { takeTime } from '../helpers/results.js';
import { plain } from '../helpers/html.js';

// Oracles from the content files alone: spi.json, its norm file and its texts.
type Band = 'low' | 'average' | 'high';
type Item = { id: string; scale: string; keying: string; alsoScales?: Array<{ scale: string; keying: string }> };
type Scale = { id: string; domain?: string; name: Record<'en' | 'nl', string> };
const content = (...path: string[]) => JSON.parse(readFileSync(join(ROOT, 'content', ...path), 'utf8'));
const spi = content('instruments', 'spi.json') as { scales: Scale[]; items: Item[] };
const norms = content('norms', 'spi-sapa.json') as {
  scales: Record<string, { distribution: Array<[number, number]>; reliability: { alpha: number } }>;
};
type Texts = Record<Band, Record<'en' | 'nl', string>>;
const texts = content('interpretations', 'scales.json').scales as Record<string, { report: Texts; feedback: Texts }>;
const domains = spi.scales.filter((s) => !s.domain);
const code = (id: string) => id.toUpperCase().replace(/-/g, '_');

/** Φ at the sten edges z = −2, −1.5, … 2 (a standard normal table): a share's sten is 1 + the edges it reaches. */
const EDGES = [0.02275, 0.066807, 0.158655, 0.308538, 0.5, 0.691462, 0.841345, 0.933193, 0.97725];
const stenOfShare = (p: number) => 1 + EDGES.filter((e) => p >= e).length;
/** The mid-rank of a raw score the sample had: the share below plus half the share at it; undefined when the sample never had it. */
function midRank(d: Array<[number, number]>, raw: number): number | undefined {
  const at = d.find(([v]) => Math.abs(v - raw) < 1e-9);
  if (!at) return undefined;
  const total = d.reduce((s, [, x]) => s + x, 0);
  return (d.filter(([v]) => v < raw - 1e-9).reduce((s, [, x]) => s + x, 0) + at[1] / 2) / total;
}
/** The stens reachable on the 1–6 scale: at 1 and at 6, the sample's mid-rank there, else 0 or 1. */
function reach(d: Array<[number, number]>): { low: number; high: number } {
  const total = d.reduce((s, [, x]) => s + x, 0);
  return { low: stenOfShare(d[0]![0] === 1 ? d[0]![1] / 2 / total : 0), high: stenOfShare(d.at(-1)![0] === 6 ? 1 - d.at(-1)![1] / 2 / total : 1) };
}
const tenth = (x: number) => Math.round(x * 10) / 10;
/** Stens 1–3 low, 4–7 average, 8–10 high; a point between them by the sten it rounds to (half up). */
const region = (x: number): Band => (x < 3.5 ? 'low' : x >= 7.5 ? 'high' : 'average');
const ORDER: Band[] = ['low', 'average', 'high'];
const WORDS = { en: { low: 'low', average: 'average', high: 'high', to: 'to' }, nl: { low: 'laag', average: 'gemiddeld', high: 'hoog', to: 'tot' } };
const cap = (x: string) => x[0]!.toUpperCase() + x.slice(1);

/** Answers putting every narrow scale of a domain at that domain's level (1–6), keyed items turned round. */
function answers(levels: number[]) {
  const domainOf = (id: string) => spi.scales.find((s) => s.id === id)!.domain ?? id;
  const level = new Map(domains.map((d, i) => [d.id, levels[i % levels.length]!]));
  const items = new Map(spi.items.map((i) => [`a_${i.id}`, i]));
  const keyed = (item: Item) => {
    const l = level.get(domainOf(item.scale))!;
    return item.keying === 'negative' ? 7 - l : l;
  };
  /** Each scale's expected sten, band and words, where the sample had its raw score. */
  const expected = new Map<string, { sten: number; low: number; high: number; own: Band; span: Band[]; clippedByReach: boolean }>();
  for (const s of spi.scales) {
    const scored = spi.items.flatMap((item) => {
      const a = keyed(item);
      return [
        ...(item.scale === s.id ? [item.keying === 'negative' ? 7 - a : a] : []),
        ...(item.alsoScales ?? []).filter((x) => x.scale === s.id).map((x) => (x.keying === 'negative' ? 7 - a : a)),
      ];
    });
    const raw = Math.round((scored.reduce((x, y) => x + y, 0) / scored.length) * 100) / 100;
    const norm = norms.scales[s.id]!;
    const p = midRank(norm.distribution, raw);
    if (p === undefined) continue;
    const sten = stenOfShare(p);
    const half = 1.644854 * 2 * Math.sqrt(1 - norm.reliability.alpha);
    const r = reach(norm.distribution);
    const low = tenth(Math.max(1, r.low, sten - half));
    const high = tenth(Math.min(10, r.high, sten + half));
    const span = ORDER.slice(ORDER.indexOf(region(low)), ORDER.indexOf(region(high)) + 1);
    const own: Band = sten <= 3 ? 'low' : sten >= 8 ? 'high' : 'average';
    expected.set(s.id, { sten, low, high, own, span, clippedByReach: sten + half > r.high && r.high < 10 });
  }
  return { answer: (name: string) => String(keyed(items.get(name)!)), expected };
}
const label = (span: Band[], lang: 'en' | 'nl') =>
  cap(span.length === 1 ? WORDS[lang][span[0]!] : `${WORDS[lang][span[0]!]} ${WORDS[lang].to} ${WORDS[lang][span.at(-1)!]}`);
const unescape = (x: string) =>
  x
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
const words = (x: string) => x.replace(/\s+/g, ' ').trim();

suiteOnEachDatabase("the SPI report says a band's uncertainty in words, within the stens its scale can reach, grouped by domain", {}, ({ server, cliEnv }) => {
  let tenant: Credentials;
  const A = answers([2, 3, 4, 5, 6]);
  const B = answers([2]);
  async function taken(lang: 'en' | 'nl', answer: (name: string) => string) {
    tenant ??= await (async () => {
      const t = await server.tenant();
      const set = await runCli(['portal', 'set', '--key', t.apiKeyId, '--candidate-feedback', 'on', '--json'], cliEnv);
      assert.equal(set.code, 0, set.stderr);
      return t;
    })();
    const a = await newAssessment(server.url, tenant, { AssessmentType: 2 });
    const client = new FormClient(server.url, { 'accept-language': lang });
    const end = await completeViaForms(client, a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
    return { a, feedback: (await client.get(end.location!)).html };
  }
  const report = async (id: string, lang: string, pdf = false) => {
    const res = await fetch(`${server.url}/api/anonymous/assessment/${id}/report?lang=${lang}${pdf ? '&format=pdf' : ''}`, { headers: authHeaders(tenant) });
    assert.equal(res.status, 200);
    return pdf ? new Uint8Array(await res.arrayBuffer()) : res.text();
  };

  test(
    'a band crossing a boundary reads "Average to high" (Dutch "Gemiddeld tot hoog") in the report page, its PDF and the feedback page; one within a band reads that band',
    { timeout: 240_000 },
    async () => {
      const { a } = await taken('en', A.answer);
      const crossing = [...A.expected].filter(([, e]) => e.span.length > 1);
      assert.ok(
        crossing.length >= 3 && crossing.length < A.expected.size,
        `some bands cross a boundary, some do not (${crossing.length} of ${A.expected.size})`,
      );
      assert.ok(
        crossing.some(([, e]) => e.span.join() === 'average,high'),
        'an average-to-high band is among them',
      );
      for (const lang of ['en', 'nl'] as const) {
        const html = (await report(a.id, lang)) as string;
        const rows = new Map(
          [
            ...html.matchAll(
              /<th scope="row(?:group)?">([^<]+)(?:<a class="adverse"[^>]*>[\s\S]*?<\/a>)?<\/th>(?:<td class="num">[^<]*<\/td>)+<td>([^<]*)<\/td><\/tr>/g,
            ),
          ].map((m) => [m[1]!, m[2]!]),
        );
        const dd = new Map(
          [...html.matchAll(/<dt>([^<]+?) <span class="band">\(([^<]*)\)<\/span><\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1]!, [m[2]!, unescape(m[3]!)]]),
        );
        const pdf = words((await readPdf((await report(a.id, lang, true)) as Uint8Array)).text.join(' '));
        for (const [id, e] of A.expected) {
          const name = spi.scales.find((s) => s.id === id)!.name[lang];
          const want = label(e.span, lang);
          assert.equal(rows.get(name), want, `${lang} table: ${id}`);
          const [heading, meaning] = dd.get(name) ?? [];
          assert.equal(heading, want, `${lang} interpretation heading: ${id}`);
          const own = texts[id]!.report[e.own][lang];
          if (e.span.length === 1) assert.equal(meaning, own, `${lang}: ${id} reads its one band`);
          else {
            assert.ok(meaning?.startsWith(`${want}: `) && meaning.endsWith(` ${own}`), `${lang}: ${id}: ${meaning}`);
            for (const b of e.span.filter((x) => x !== e.own)) assert.ok(meaning!.includes(WORDS[lang][b]), `${lang}: ${id} names ${b}`);
          }
          assert.ok(pdf.includes(`${name} (${want})`), `${lang} PDF: ${name} (${want})`);
        }
      }
      // The feedback page, in each language: its three highest and two lowest scales.
      for (const lang of ['en', 'nl'] as const) {
        const { feedback } = await taken(lang, B.answer);
        const listed = [...feedback.matchAll(/<li><strong>([^<]+)\.<\/strong> ([^<]*)<\/li>/g)].map((m) => [m[1]!, unescape(m[2]!)] as const);
        assert.equal(listed.length, 5, lang);
        let crossed = 0;
        for (const [name, shown] of listed) {
          const id = spi.scales.find((s) => s.name[lang] === name)!.id;
          const e = B.expected.get(id)!;
          const own = texts[id]!.feedback[e.own][lang];
          if (e.span.length === 1) assert.equal(shown, own, `${lang} feedback: ${id}`);
          else {
            crossed++;
            assert.ok(shown.startsWith(`${label(e.span, lang)}: `) && shown.endsWith(` ${own}`), `${lang} feedback: ${id}: ${shown}`);
          }
        }
        assert.ok(crossed > 0 && crossed < 5, `${lang}: the feedback page lists crossing and single bands (${crossed} crossing)`);
      }
    },
  );

  test(
    'each band lies within the stens its scale can reach, computed from the norm file, clipped where the band would pass them',
    { timeout: 120_000 },
    async () => {
      const { a } = await taken('en', A.answer);
      const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      assert.equal(r.StenBands.length, spi.scales.length);
      for (const s of spi.scales) {
        const band = r.StenBands.find((b: { ExternalCode: string }) => b.ExternalCode === code(s.id));
        const { low, high } = reach(norms.scales[s.id]!.distribution);
        assert.ok(band.Low >= low && band.High <= high, `${s.id}: ${band.Low}–${band.High} within ${low}–${high}`);
        const e = A.expected.get(s.id);
        if (e) assert.deepEqual([band.Sten, band.Low, band.High], [e.sten, e.low, e.high], s.id);
      }
      // Positive control: some bands would pass their reachable stens unclipped (Introspection: 15% of the sample at its top).
      const clipped = [...A.expected].filter(([, e]) => e.clippedByReach);
      assert.ok(clipped.length > 0, 'a band is clipped by its reachable range');
      const html = (await report(a.id, 'en')) as string;
      for (const [id, e] of clipped) {
        assert.ok(html.includes(`${e.low.toFixed(1)}–${e.high.toFixed(1)}`), `the report shows ${id}'s clipped band`);
      }
      const shown = await runCli(['norms', 'show', 'spi-sapa-2.1.0', '--json'], cliEnv);
      const text = await runCli(['norms', 'show', 'spi-sapa-2.1.0'], cliEnv);
      for (const s of spi.scales) {
        const want = reach(norms.scales[s.id]!.distribution);
        assert.deepEqual(JSON.parse(shown.stdout).reachableStens[s.id], want, `norms show --json: ${s.id}`);
        const line = text.stdout.split('\n').find((l) => l.startsWith(`  ${s.name.en} `) && !/%/.test(l));
        assert.ok(line?.trimEnd().endsWith(` ${want.low}–${want.high}`), `norms show: ${line}`);
      }
    },
  );

  test('the page and the PDF head each domain, in spi.json order, with its narrow scales beneath (chart and table)', { timeout: 120_000 }, async () => {
    const { a } = await taken('en', A.answer);
    const expected = domains.map((d) => [d.name.en, spi.scales.filter((n) => n.domain === d.id).map((n) => n.name.en)] as const);
    assert.ok(expected.length >= 2 && expected.every(([, n]) => n.length > 0), 'positive control: domains with narrow scales');
    const html = (await report(a.id, 'en')) as string;
    const tbodies = [...html.matchAll(/<tbody class="domain">([\s\S]*?)<\/tbody>/g)].map((m) => [
      /<tr class="domain"><th scope="rowgroup">([^<]+)(?:<a class="adverse"[^>]*>[\s\S]*?<\/a>)?<\/th>/.exec(m[1]!)?.[1],
      [...m[1]!.matchAll(/<tr class="narrow"><th scope="row">([^<]+)(?:<a class="adverse"[^>]*>[\s\S]*?<\/a>)?<\/th>/g)].map((x) => x[1]),
    ]);
    assert.deepEqual(tbodies, expected, 'the table: a body per domain, headed by it');
    const svg = /<svg class="profile-chart"[\s\S]*?<\/svg>/.exec(html)![0];
    const groups = [
      ...svg.matchAll(/<g class="(domain|narrow)">\n<text x="([\d.]+)"[^>]*>([^<]+)(?:<tspan class="adverse"[^>]*>[^<]*<\/tspan>)?<\/text>/g),
    ].map((m) => [m[1], Number(m[2]), m[3]] as const);
    assert.deepEqual(
      groups.map(([kind, , name]) => [kind, name]),
      expected.flatMap(([d, n]) => [['domain', d], ...n.map((x) => ['narrow', x])]),
      'the chart: each domain, then its narrow scales',
    );
    assert.ok(
      groups.every(([kind, x]) => (kind === 'domain') === x < 100),
      'domain names start at the left, narrow names by their bars',
    );

    const pages = await readPdfPlaced((await report(a.id, 'en', true)) as Uint8Array);
    const names = new Set(expected.flatMap(([d, n]) => [d, ...n]));
    // A scale whose cut screens out one gender more than the other carries the mark after its name (test/api/spi-fairness).
    const placed = pages
      .flat()
      .map((p) => ({ ...p, str: p.str.replace(/ †$/, '') }))
      .filter((p) => names.has(p.str));
    const order = expected.flatMap(([d, n]) => [d, ...n]);
    assert.deepEqual(
      placed.map((p) => p.str),
      [...order, ...order, ...order],
      'the PDF: the chart, the table and the fairness table, each domain followed by its narrow scales',
    );
    for (const part of [0, 1, 2].map((k) => placed.slice(k * order.length, (k + 1) * order.length))) {
      const x = (name: string) => part.find((p) => p.str === name)!.transform[4]!;
      for (const [d, n] of expected) for (const s of n) assert.ok(x(d) < x(s), `the PDF: ${s} starts right of its domain ${d}`);
    }
    // TMA170 has no domains: no domain bodies or headings.
    const tma = await newAssessment(server.url, tenant, { AssessmentType: 0 });
    await completeViaForms(new FormClient(server.url), tma.id, { beforePost: takeTime(server.running.deps.store, tma.id) });
    const tmaHtml = (await report(tma.id, 'en')) as string;
    assert.match(plain(tmaHtml), /Motivation profile/);
    assert.doesNotMatch(tmaHtml, /class="(domain|narrow)"/);
  });
});
