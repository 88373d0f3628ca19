import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders, type Credentials } from '../helpers/http.js';
import { midRankAt, stenOfShare } from '../helpers/norm-oracle.js';
import { readPdf } from '../helpers/pdf.js';
import { runCli } from '../helpers/cli.js';
import { instruments, takeTime } from '../helpers/results.js';
import { plain } from '../helpers/html.js';

const spi = instruments.get(2)!;
const shipped = JSON.parse(readFileSync(join(ROOT, 'content', 'norms', 'spi-sapa.json'), 'utf8')) as {
  sampleSize: number;
  scales: Record<string, { distribution: Array<[number, number]> }>;
};
const DUTCH_NOTE = spi.languages!.translations!.nl!.note;
type Texts = Record<'low' | 'average' | 'high', Record<'en' | 'nl', string>>;
const texts = JSON.parse(readFileSync(join(ROOT, 'content', 'interpretations', 'scales.json'), 'utf8')).scales as Record<
  string,
  { report: Texts; feedback: Texts }
>;
/** The band table of content/interpretations/README.md: sten 1–3 low, 4–7 average, 8–10 high. */
const bandOf = (sten: number) => (sten <= 3 ? 'low' : sten <= 7 ? 'average' : 'high');

/** A fixed SPI candidate: every answer from 1 to 6 by the item's place, so scales land at different interior points. */
const answer = (_name: string, i: number) => String(1 + ((i * 5 + Math.floor(i / 7)) % 6));

suiteOnEachDatabase(
  'the SPI: normed on its shipped SAPA group out of the box, a Dutch result says it has no norms of its own, and its words are those of a personality inventory',
  {},
  ({ server, creds, cliEnv }) => {
    async function taken(c: Credentials, headers: Record<string, string> = {}) {
      const a = await newAssessment(server.url, c, { AssessmentType: 2 });
      await completeViaForms(new FormClient(server.url, headers), a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
      return a;
    }

    test("a fixed candidate's 31 stens and percentiles equal those worked out by hand from content/norms/spi-sapa.json", { timeout: 120_000 }, async () => {
      const a = await taken(creds);
      const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      assert.equal(r.NormGroup.Id, 'spi-sapa-2.1.0', 'the shipped group is active on a new server');
      assert.deepEqual([r.NormGroup.Illustrative, r.NormGroup.SampleSize], [false, shipped.sampleSize]);
      assert.match(r.NormGroup.Source, /web volunteers of the SAPA project .* not job applicants/);
      assert.equal(r.NormScoreScales.length, 31);
      assert.equal(r.NormScores.length, 31);
      const codes = new Map(spi.scales.map((s) => [s.id.toUpperCase().replace(/-/g, '_'), s.id]));
      const stens = new Set<number>();
      for (const [i, raw] of r.NormScoreScales.entries()) {
        const id = codes.get(raw.ExternalCode)!;
        assert.ok(raw.Value > 1 && raw.Value < 6, `${id}: an interior point (${raw.Value})`);
        const p = midRankAt(shipped.scales[id]!.distribution, raw.Value);
        assert.equal(r.NormScoresPercentage[i].ExternalCode, raw.ExternalCode);
        assert.equal(r.NormScoresPercentage[i].Value, Math.round(p * 100), `${id} percentile at ${raw.Value}`);
        assert.equal(r.NormScores[i].Value, stenOfShare(p), `${id} sten at ${raw.Value}`);
        stens.add(r.NormScores[i].Value);
      }
      assert.ok(stens.size >= 4, `the candidate spreads over several stens (${[...stens]})`);
      // Positive control for the Dutch note below: taken in English, the result does not carry it.
      assert.ok(!(r.Note ?? '').includes(DUTCH_NOTE.en));
    });

    test('taken in Dutch: Note and the report (page and PDF) say the Dutch version has no norms or evidence of its own', { timeout: 120_000 }, async () => {
      const a = await taken(creds, { 'accept-language': 'nl-NL,nl;q=0.9' });
      for (const culture of ['nl-NL', 'en-GB']) {
        const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/${culture}`)).body;
        assert.ok(r.Note.includes(DUTCH_NOTE.en), `${culture}: ${r.Note}`);
        assert.equal(r.NormGroup.Id, 'spi-sapa-2.1.0', 'still normed on the English sample, which the note says');
      }
      for (const lang of ['nl', 'en'] as const) {
        const res = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=${lang}`, { headers: authHeaders(creds) });
        assert.equal(res.status, 200);
        assert.ok(plain(await res.text()).includes(DUTCH_NOTE[lang]), lang);
      }
      const pdf = await readPdf(
        Buffer.from(
          await (await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?format=pdf&lang=en`, { headers: authHeaders(creds) })).arrayBuffer(),
        ),
      );
      // PDF text comes out with its own line breaks: compare words.
      const words = (x: string) => x.replace(/\s+/g, ' ').trim();
      assert.ok(words(pdf.text.join(' ')).includes(words(DUTCH_NOTE.en).slice(0, 60)), 'the PDF carries the note');
      assert.match(words(pdf.text.join(' ')), /Personality profile/, "the PDF's words are those of a personality inventory");
      assert.doesNotMatch(pdf.text.join(' '), /motivat/i);
      const english = await taken(creds);
      const res = await fetch(`${server.url}/api/anonymous/assessment/${english.id}/report?lang=nl`, { headers: authHeaders(creds) });
      const text = plain(await res.text());
      assert.ok(text.includes('SAPA'), 'positive control: the report was read');
      assert.ok(!text.includes(DUTCH_NOTE.nl), 'taken in English: no translation note');
    });

    test(
      "its portal asks how accurately each statement describes you; its report page and feedback speak of personality, not motivation, and give each scale the interpretation text of its sten's band, in the page's language",
      { timeout: 120_000 },
      async () => {
        const tenant = await server.tenant();
        // Translated norms allowed: the Dutch result's stens come from the vendor endpoint below.
        const set = await runCli(['portal', 'set', '--key', tenant.apiKeyId, '--candidate-feedback', 'on', '--translated-norms', 'allow', '--json'], cliEnv);
        assert.equal(set.code, 0, set.stderr);
        for (const [lang, instruction, feedback, profile] of [
          ['en', /how accurately it describes you/, /Where you scored highest/, /Personality profile/],
          ['nl', /hoe goed die u beschrijft/, /Waar u het hoogst scoorde/, /Persoonlijkheidsprofiel/],
        ] as const) {
          const a = await newAssessment(server.url, tenant, { AssessmentType: 2 });
          const client = new FormClient(server.url, { 'accept-language': lang });
          let questions = '';
          const end = await completeViaForms(client, a.id, {
            answer,
            beforePost: async (location) => {
              questions ||= (await client.get(location)).html;
              await takeTime(server.running.deps.store, a.id)(location);
            },
          });
          assert.match(questions, instruction, `${lang}: the instruction`);
          assert.doesNotMatch(questions, /agree|eens bent/, `${lang}: not the agreement instruction`);
          const page = await client.get(end.location!);
          assert.equal(page.status, 200);
          assert.match(page.html, feedback, `${lang}: the feedback page`);
          assert.doesNotMatch(page.html, /motivat|motive/i, `${lang}: no word of motivation on the feedback page`);
          const report = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=${lang}`, { headers: authHeaders(tenant) });
          const html = await report.text();
          const text = plain(html);
          assert.match(text, profile, `${lang}: the report's profile`);
          assert.doesNotMatch(text, /motivat|motive/i, `${lang}: no word of motivation in the report`);
          // Each scale's band from its sten on the vendor endpoint, by the README's table; its text from scales.json.
          const stens = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body.NormScores as Array<{ ExternalCode: string; Value: number }>;
          const byName = new Map(
            stens.map((n) => {
              const scale = spi.scales.find((s) => s.id.toUpperCase().replace(/-/g, '_') === n.ExternalCode)!;
              return [scale.name[lang], { id: scale.id, band: bandOf(n.Value) }] as const;
            }),
          );
          assert.equal(byName.size, 31);
          const shown = new Map([...html.matchAll(/<dt>([^<]+?)(?: <span class="band">[^<]*<\/span>)?<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1]!, m[2]!]));
          // The band's text ends each; a band crossing into another is said first (test/api/spi-report-words).
          const unescaped = (x: string | undefined) => x?.replace(/&#39;/g, "'");
          for (const [name, { id, band }] of byName) {
            assert.ok(unescaped(shown.get(name))?.endsWith(texts[id]!.report[band][lang]), `${lang} report: ${id}, ${band}`);
          }
          assert.ok(new Set([...byName.values()].map((x) => x.band)).size >= 2, `${lang}: the candidate's scales fall in more than one band`);
          const listed = [...page.html.matchAll(/<li><strong>([^<]+)\.<\/strong> ([^<]*)<\/li>/g)];
          assert.equal(listed.length, 5, `${lang}: three highest and two lowest scales on the feedback page`);
          for (const [, name, shownText] of listed) {
            const { id, band } = byName.get(name!)!;
            assert.ok(unescaped(shownText)?.endsWith(texts[id]!.feedback[band][lang]), `${lang} feedback: ${id}, ${band}`);
          }
          if (lang === 'en') {
            // The table: each domain, then the narrow scales under it (spi.json's domain), indented.
            const rows = [
              ...html.matchAll(
                /<tr class="(domain|narrow)"><th scope="row(?:group)?">([^<]+)(?:<a class="adverse"[^>]*>[\s\S]*?<\/a>)?<\/th><td class="num">/g,
              ),
            ].map((m) => [m[2], m[1] === 'narrow'] as const);
            const expected = spi.scales
              .filter((d) => !d.domain)
              .flatMap((d) => [[d.name.en, false] as const, ...spi.scales.filter((n) => n.domain === d.id).map((n) => [n.name.en, true] as const)]);
            assert.equal(expected.length, 31);
            assert.deepEqual(rows, expected);
          }
        }
        // Positive control: a TMA170 report still speaks of motivation.
        const tma = await newAssessment(server.url, tenant, { AssessmentType: 0 });
        await completeViaForms(new FormClient(server.url), tma.id, { beforePost: takeTime(server.running.deps.store, tma.id) });
        const tmaReport = plain(
          await (await fetch(`${server.url}/api/anonymous/assessment/${tma.id}/report?lang=en`, { headers: authHeaders(tenant) })).text(),
        );
        assert.match(tmaReport, /Motivation profile/);
      },
    );
  },
);
