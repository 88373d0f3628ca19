import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders, type Credentials } from '../helpers/http.js';
import { readPdf } from '../helpers/pdf.js';
import { runCli } from '../helpers/cli.js';
import { instruments, takeTime } from '../helpers/results.js';
import { plain } from '../helpers/html.js';

// The oracle is the norm file alone: content/norms/spi-sapa.json's genderDifferences (its figures against R: test/content/spi-fairness.r).
type Diff = { d: number; dLower?: number; dUpper?: number; fourFifths: number; fourFifthsLow?: number };
const spi = instruments.get(2)!;
const FILE = join(ROOT, 'content', 'norms', 'spi-sapa.json');
const diffs = JSON.parse(readFileSync(FILE, 'utf8')).sample.genderDifferences as Record<string, Diff>;
const code = (id: string) => id.toUpperCase().replace(/-/g, '_');
const byCode = new Map(spi.scales.map((s) => [code(s.id), s]));
const f3 = (x: number | undefined) => (x === undefined ? null : Math.round(x * 1000) / 1000);
const f2 = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(2));
const adverse = (d: Diff) => [d.fourFifths, d.fourFifthsLow].some((r) => r !== undefined && r < 0.8);
const SENTENCE = {
  en: 'A cut on this scale screens out one gender more than the other in the norm group.',
  nl: 'Een afkappunt op deze schaal sluit in de normgroep het ene geslacht vaker uit dan het andere.',
};
const answer = (_name: string, i: number) => String(1 + ((i * 5 + Math.floor(i / 7)) % 6));
const words = (x: string) => x.replace(/\s+/g, ' ').trim();
/** The fairness section's rows of a report page: name, whether marked, and the four cells. */
const fairnessRows = (html: string) =>
  new Map(
    [
      ...html.matchAll(
        /<tr class="fairness[^"]*"><th scope="row">([^<]+)(<span class="adverse"[^>]*>†<\/span>)?<\/th><td class="num">([^<]*)<\/td><td class="num">([^<]*)<\/td><td class="num">([^<]*)<\/td><td class="num">([^<]*)<\/td><\/tr>/g,
      ),
    ].map((m) => [m[1]!, { marked: !!m[2], cells: [m[3], m[4], m[5], m[6]] }]),
  );
/** The names the score table marks. */
const markedInTable = (html: string) => new Set([...html.matchAll(/<th scope="row(?:group)?">([^<]+)<a class="adverse"/g)].map((m) => m[1]!));

suiteOnEachDatabase("the norm group's differences between women and men reach the employer: results, report and catalogue", {}, ({ server, creds, cliEnv }) => {
  async function taken(c: Credentials) {
    const a = await newAssessment(server.url, c, { AssessmentType: 2 });
    await completeViaForms(new FormClient(server.url, { 'accept-language': 'en' }), a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
    return a;
  }
  const get = async (c: Credentials, path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: authHeaders(c) });
    assert.equal(res.status, 200, path);
    return res;
  };

  test('the results carry a Fairness item per scale equal to the norm file; the report (page, both languages, and PDF) shows the same and marks exactly the scales with a ratio under 0.80', async () => {
    const a = await taken(creds);
    const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
    assert.equal(r.NormGroup.Id, 'spi-sapa-2.1.0');
    assert.equal(r.Fairness.length, 31);
    assert.deepEqual(
      r.Fairness.map((f: { ID: number }) => f.ID),
      r.NormScores.map((n: { ID: number }) => n.ID),
      'one per sten in NormScores, in its order',
    );
    for (const f of r.Fairness) {
      const d = diffs[byCode.get(f.ExternalCode)!.id]!;
      assert.deepEqual(
        [f.D, f.DLow, f.DHigh, f.RatioHigh, f.RatioLow],
        [f3(d.d), f3(d.dLower), f3(d.dUpper), f3(d.fourFifths), f3(d.fourFifthsLow)],
        f.ExternalCode,
      );
    }
    const flagged = spi.scales.filter((s) => adverse(diffs[s.id]!));
    // Positive and negative controls: Compassion's ratio at sten 7+ is under 0.80, Perfectionism's are both over.
    assert.ok(adverse(diffs['spi-compassion']!) && !adverse(diffs['spi-perfectionism']!));
    assert.ok(flagged.length > 5 && flagged.length < spi.scales.length, `${flagged.length} scales under 0.80`);

    for (const lang of ['en', 'nl'] as const) {
      const html = await (await get(creds, `/api/anonymous/assessment/${a.id}/report?lang=${lang}`)).text();
      const rows = fairnessRows(html);
      assert.equal(rows.size, 31, `${lang}: a fairness row per scale`);
      for (const s of spi.scales) {
        const d = diffs[s.id]!;
        const row = rows.get(s.name[lang]);
        assert.deepEqual(row?.cells, [f2(d.d), `[${f2(d.dLower)}, ${f2(d.dUpper)}]`, f2(d.fourFifths), f2(d.fourFifthsLow)], `${lang}: ${s.id}`);
        assert.equal(row!.marked, adverse(d), `${lang} fairness table: ${s.id}`);
      }
      assert.deepEqual(markedInTable(html), new Set(flagged.map((s) => s.name[lang])), `${lang}: the score table marks exactly those`);
      assert.ok(plain(html).includes(SENTENCE[lang]), `${lang}: the mark's sentence`);
    }

    const pdf = await readPdf(new Uint8Array(await (await get(creds, `/api/anonymous/assessment/${a.id}/report?lang=en&format=pdf`)).arrayBuffer()));
    const text = words(pdf.text.join(' '));
    assert.ok(text.includes('Differences between women and men in the norm group'), 'the PDF has the section');
    assert.ok(text.includes(SENTENCE.en), "the PDF has the mark's sentence");
    for (const s of spi.scales) {
      const d = diffs[s.id]!;
      const row = `${s.name.en}${adverse(d) ? ' †' : ''} ${f2(d.d)} [${f2(d.dLower)}, ${f2(d.dUpper)}] ${f2(d.fourFifths)} ${f2(d.fourFifthsLow)}`;
      assert.ok(text.includes(row), `the PDF's fairness row: ${row}`);
      assert.equal(text.includes(`${s.name.en} †`), adverse(d), `the PDF marks ${s.id} ${adverse(d) ? '' : 'not '}`);
    }
  });

  test('the catalogue gives each SPI scale the figures of the group in force; an instrument whose group records no gender gets none', async () => {
    const body = (await (await get(creds, '/api/anonymous/assessmenttypes')).json()) as {
      Data: Array<{ Code: string; NormGroup: { Id: string } | null; Scales: Array<{ ExternalCode: string; Fairness: Record<string, number | null> | null }> }>;
    };
    const entry = body.Data.find((e) => e.Code === 'SPI')!;
    assert.equal(entry.NormGroup?.Id, 'spi-sapa-2.1.0');
    for (const s of entry.Scales) {
      const d = diffs[byCode.get(s.ExternalCode)!.id]!;
      assert.deepEqual(
        s.Fairness,
        { D: f3(d.d), DLow: f3(d.dLower), DHigh: f3(d.dUpper), RatioHigh: f3(d.fourFifths), RatioLow: f3(d.fourFifthsLow) },
        s.ExternalCode,
      );
    }
    const tma = body.Data.find((e) => e.Code === 'TMA170')!;
    assert.ok(tma.Scales.length > 0 && tma.Scales.every((s) => s.Fairness === null), 'TMA170: no figures without a gendered norm sample');
  });

  test('a group built before the interval and the sten-4 ratio loads: the results, report, catalogue and norms show give what it has and leave the rest out', async () => {
    const old = JSON.parse(readFileSync(FILE, 'utf8'));
    old.name = 'SAPA adults, an older build';
    for (const d of Object.values(old.sample.genderDifferences) as Array<Record<string, any>>) {
      for (const k of ['dLower', 'dUpper', 'fourFifthsLow']) delete d[k];
      delete d.male.low;
      delete d.female.low;
    }
    const file = join(server.dataDir, 'spi-older.json');
    writeFileSync(file, JSON.stringify(old));
    const imported = await runCli(['norms', 'import', file, '--json'], cliEnv);
    assert.equal(imported.code, 0, imported.stderr);
    const id = JSON.parse(imported.stdout).id as string;
    const tenant = await server.tenant();
    const activated = await runCli(['norms', 'activate', id, '--key', tenant.apiKeyId], cliEnv);
    assert.equal(activated.code, 0, activated.stderr);

    const a = await taken(tenant);
    const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
    assert.equal(r.NormGroup.Id, id);
    assert.equal(r.Fairness.length, 31);
    for (const f of r.Fairness) {
      const d = diffs[byCode.get(f.ExternalCode)!.id]!;
      assert.deepEqual([f.D, f.DLow, f.DHigh, f.RatioHigh, f.RatioLow], [f3(d.d), null, null, f3(d.fourFifths), null], f.ExternalCode);
    }
    const html = await (await get(tenant, `/api/anonymous/assessment/${a.id}/report?lang=en`)).text();
    const rows = fairnessRows(html);
    assert.equal(rows.size, 31);
    // Marked on the one ratio it has: Compassion (0.48 at sten 7+) yes, Perfectionism (0.99) no.
    const high = (id: string) => diffs[id]!.fourFifths < 0.8;
    for (const s of spi.scales)
      assert.deepEqual(rows.get(s.name.en), { marked: high(s.id), cells: [f2(diffs[s.id]!.d), '–', f2(diffs[s.id]!.fourFifths), '–'] }, s.id);
    assert.ok(high('spi-compassion') && !high('spi-perfectionism'));

    const catalogue = (await (await get(tenant, '/api/anonymous/assessmenttypes')).json()) as {
      Data: Array<{ Code: string; Scales: Array<{ Fairness: { DLow: unknown; RatioHigh: unknown } }> }>;
    };
    const scales = catalogue.Data.find((e) => e.Code === 'SPI')!.Scales;
    assert.ok(scales.every((s) => s.Fairness.DLow === null && typeof s.Fairness.RatioHigh === 'number'));

    const shown = await runCli(['norms', 'show', id], cliEnv);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /not recorded: the interval and the shares at sten 4-; this group was built before Assay recorded them/);
    // Positive control: the rebuilt shipped group prints its interval and both ratios, and no such line.
    const full = await runCli(['norms', 'show', 'spi-sapa-2.1.0'], cliEnv);
    const line = full.stdout.split('\n').find((l) => l.startsWith('  Compassion ') && /%/.test(l))!;
    const d = diffs['spi-compassion']!;
    assert.ok(line.includes(`${f2(d.d)}   [${f2(d.dLower)}, ${f2(d.dUpper)}]`) && line.trimEnd().endsWith(f2(d.fourFifthsLow)), line);
    assert.ok(line.includes(` ${f2(d.fourFifths)} `), line);
    assert.doesNotMatch(full.stdout, /built before Assay recorded them/);
  });
});
