import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { CompetenceModel } from '../../src/measurement/types.js';
import { COMPETENCES_FILE, INTERPRETATIONS_FILE } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders } from '../helpers/http.js';
import { readPdf } from '../helpers/pdf.js';
import { instruments, profileAnswers, takeTime } from '../helpers/results.js';
import { activateTestNorms } from '../helpers/norms.js';
import { plain } from '../helpers/html.js';

const model = JSON.parse(readFileSync(COMPETENCES_FILE, 'utf8')) as CompetenceModel;
const texts = JSON.parse(readFileSync(INTERPRETATIONS_FILE, 'utf8'));
const tma170 = instruments.get(0)!;

suiteOnEachDatabase('the report, as a page and as a PDF', {}, ({ server, creds }) => {
  before(async () => {
    await activateTestNorms(server.running.deps.store);
  });

  async function fetchReport(id: string, query = '', headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}/api/anonymous/assessment/${id}/report${query}`, { headers: { ...authHeaders(creds), ...headers } });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  test('nl and en: the name written correctly, the instrument and date, the norm group, a chart that matches the scores, texts for every band', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { FirstName: 'Renée', Preposition: "van 't", LastName: 'Hoff-Ölçer' });
    const { answer } = profileAnswers(tma170, 4);
    await completeViaForms(new FormClient(server.url), a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
    const result = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;

    for (const lang of ['en', 'nl'] as const) {
      const { res, bytes } = await fetchReport(a.id, `?lang=${lang}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'; style-src 'self'/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.headers.get('x-robots-tag') ?? '', /noindex/);
      const html = bytes.toString('utf8');
      const text = plain(html);
      assert.match(html, new RegExp(`<html lang="${lang}">`));
      assert.ok(text.includes("Renée van 't Hoff-Ölçer"), 'first name, preposition, last name, with their diacritics');
      assert.ok(text.includes(tma170.name[lang]));
      assert.ok(text.includes(lang === 'nl' ? 'Illustratief voorbeeld' : 'Illustrative example') || text.includes(result.NormGroup.Name));
      assert.match(text, lang === 'nl' ? /\d{1,2} [a-z]+ 20\d\d/ : /\d{1,2} [A-Z][a-z]+ 20\d\d/);

      // The chart: one bar per scale, labelled with the sten the results endpoint gives.
      const svg = /<svg class="profile-chart"[\s\S]*?<\/svg>/.exec(html)![0];
      assert.match(svg, /role="img"/);
      const bars = [...svg.matchAll(/<g>\s*<text[^>]*>([^<]+)<\/text>\s*<rect x="([\d.]+)"[^>]*width="([\d.]+)"[^>]*><\/rect>\s*<text[^>]*>(\d+)<\/text>/g)];
      assert.equal(bars.length, 26);
      // The gridlines, by the sten printed above each: a bar ends on the line of its own sten.
      const grid = new Map([...svg.matchAll(/<line x1="([\d.]+)"[^>]*><\/line>\s*<text[^>]*>(\d+)<\/text>/g)].map((m) => [Number(m[2]), Number(m[1])]));
      assert.deepEqual([...grid.keys()], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const origin = Number(bars[0]![2]);
      const step = grid.get(2)! - grid.get(1)!;
      assert.ok(Math.abs(grid.get(1)! - origin - step) < 0.01, 'the bars start at sten 0, one step left of the line for 1');
      for (const [i, s] of tma170.scales.entries()) {
        const [, name, x, width, label] = bars[i]!;
        assert.equal(name, s.name[lang]);
        assert.equal(Number(label), result.NormScores[i].Value, s.id);
        assert.equal(Number(x), origin, s.id);
        assert.ok(
          Math.abs(Number(x) + Number(width) - grid.get(result.NormScores[i].Value)!) < 0.01,
          `${s.id}: the bar ends at sten ${result.NormScores[i].Value}`,
        );
      }
      assert.ok(new Set(bars.map((b) => b[3])).size >= 3, 'bars of several lengths: equal bars would not pass');
      assert.match(svg, /fill="#e8edf3"/, 'the average band is marked');

      // The table repeats the chart for screen readers, and each scale's band text follows.
      for (const [i, s] of tma170.scales.entries()) {
        const sten = result.NormScores[i].Value as number;
        const bandName = sten <= 3 ? 'low' : sten >= 8 ? 'high' : 'average';
        assert.ok(text.includes(texts.scales[s.id].report[bandName][lang]), `${s.id}: the ${bandName} text`);
        assert.ok(text.includes(`${s.name[lang]} ${sten} ${result.NormScoresPercentage[i].Value}`), `${s.id} row`);
      }
      for (const c of model.competences) assert.ok(text.includes(c.name[lang]), c.code);
      assert.ok(text.includes(lang === 'nl' ? 'Consistentie: 100 van de 100.' : 'Consistency: 100 out of 100.'));
      assert.ok(text.includes(lang === 'nl' ? 'Zo leest u dit rapport' : 'How to read this report'));
      assert.ok(text.includes(lang === 'nl' ? 'Waarvoor dit rapport niet gebruikt mag worden' : 'What this report must not be used for'));
    }
  });

  test('flags are explained in plain words', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    await completeViaForms(new FormClient(server.url), a.id, { answer: () => '5' });
    const text = plain((await fetchReport(a.id, '?lang=en')).bytes.toString('utf8'));
    assert.ok(text.includes('On at least half of the pages every statement got the same answer.'));
    assert.ok(text.includes('less than a second per statement'));
    assert.ok(text.includes('Talk about this with the candidate'));
  });

  test('the PDF parses, has the name and every scale, and renders names in other scripts', async () => {
    const names = [
      { FirstName: 'Ђорђе', Preposition: '', LastName: 'Јовановић', font: 'NotoSans-Regular' },
      { FirstName: '伟明', Preposition: '', LastName: '欧阳', font: 'NotoSansSC' },
      { FirstName: '민준', Preposition: '', LastName: '남궁', font: 'NotoSansKR' },
      { FirstName: 'Σωκράτης', Preposition: '', LastName: 'Παππάς', font: 'NotoSans-Regular' },
    ];
    for (const { font, ...name } of names) {
      const a = await newAssessment(server.url, creds, { AssessmentType: 1 }, name);
      await completeViaForms(new FormClient(server.url), a.id);
      const viaQuery = await fetchReport(a.id, '?format=pdf&lang=en');
      const viaAccept = await fetchReport(a.id, '', { accept: 'application/pdf' });
      for (const { res, bytes } of [viaQuery, viaAccept]) {
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/pdf');
        assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="assessment-report-[A-Za-z0-9._-]+\.pdf"$/);
        assert.ok(!(res.headers.get('content-disposition') ?? '').includes(a.id), 'the bearer token stays out of the filename');
        assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
      }
      const pdf = await readPdf(viaQuery.bytes);
      assert.ok(pdf.pages >= 3, `${pdf.pages} pages`);
      const all = pdf.text.join(' ').replace(/\s+/g, ' ');
      assert.ok(all.includes(`${name.FirstName} ${name.LastName}`), `the name ${name.FirstName} ${name.LastName}`);
      for (const s of instruments.get(1)!.scales) assert.ok(all.includes(s.name.en), s.id);
      assert.ok(viaQuery.bytes.includes(Buffer.from(font)), `a subset of ${font} is embedded`);
    }
  });
});

suiteOnEachDatabase('a report that is not norm-referenced', { env: { EXAMPLE_NORMS: 'false' } }, ({ server, creds }) => {
  test('says so, and charts the raw scores on 1–5', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    const { answer, level } = profileAnswers(tma170, 1);
    await completeViaForms(new FormClient(server.url), a.id, { answer });
    const res = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=en`, { headers: authHeaders(creds) });
    const html = await res.text();
    assert.ok(plain(html).includes('These scores are not norm-referenced'));
    const svg = /<svg class="profile-chart"[\s\S]*?<\/svg>/.exec(html)![0];
    const values = [...svg.matchAll(/<\/rect>\s*<text[^>]*>([\d.]+)<\/text>/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      values,
      tma170.scales.map((s) => level.get(s.id)),
    );
    assert.doesNotMatch(svg, /fill="#e8edf3"/, 'no norm band without norms');
    const pdf = await readPdf(
      Buffer.from(await (await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?format=pdf`, { headers: authHeaders(creds) })).arrayBuffer()),
    );
    assert.ok(pdf.text.join(' ').includes('not norm-referenced'));
  });
});
