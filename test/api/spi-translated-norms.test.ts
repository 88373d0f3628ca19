import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders } from '../helpers/http.js';
import { runCli } from '../helpers/cli.js';
import { takeTime } from '../helpers/results.js';
import { plain } from '../helpers/html.js';

const spi = JSON.parse(readFileSync(join(ROOT, 'content', 'instruments', 'spi.json'), 'utf8')) as {
  scales: unknown[];
  languages: { translations: { nl: { note: Record<'en' | 'nl', string> } } };
};
const DUTCH_NOTE = spi.languages.translations.nl.note;
const NORMED = ['NormScores', 'NormScoresPercentage', 'AptitudeScores', 'AptitudeScoresPercentage', 'StenBands'] as const;
const answer = (_name: string, i: number) => String(1 + ((i * 5 + Math.floor(i / 7)) % 6));

suiteOnEachDatabase(
  "a Dutch SPI result, compared with the English-speaking norm group, stays out of the vendor's sten and percentile lists until its portal allows translated norms",
  {},
  ({ server, creds, cliEnv }) => {
    async function taken(lang: 'en' | 'nl') {
      const a = await newAssessment(server.url, creds, { AssessmentType: 2 });
      await completeViaForms(new FormClient(server.url, { 'accept-language': lang }), a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
      return a;
    }
    const portal = async (setting: 'allow' | 'deny') => {
      const set = await runCli(['portal', 'set', '--key', creds.apiKeyId, '--translated-norms', setting, '--json'], cliEnv);
      assert.equal(set.code, 0, set.stderr);
      assert.equal(JSON.parse(set.stdout).translatedNorms, setting);
    };

    test(
      'the lists stay empty with a Note saying why; --translated-norms allow fills them and the Note stays; deny empties them again',
      { timeout: 180_000 },
      async () => {
        const [dutch, english] = [await taken('nl'), await taken('en')];
        const results = async (id: string) => (await dutch.api.get(`/api/candidateanalysisresult/${id}/nl-NL`)).body;

        // Positive control: the English result on the same portal and group has every list.
        const en = await results(english.id);
        for (const list of ['NormScores', 'NormScoresPercentage', 'StenBands'] as const) assert.equal(en[list].length, spi.scales.length, `English ${list}`);
        assert.doesNotMatch(en.Note ?? '', /lists stay empty/);

        const before = await results(dutch.id);
        for (const list of NORMED) assert.deepEqual(before[list], [], `Dutch ${list}`);
        assert.equal(before.NormScoreScales.length, spi.scales.length, 'the raw scores are still given');
        assert.ok(before.Note.includes(DUTCH_NOTE.en), before.Note);
        assert.match(before.Note, /language is en, not nl, so the sten, percentile and band lists stay empty/);

        // The report still compares, with the note.
        const report = plain(await (await fetch(`${server.url}/api/anonymous/assessment/${dutch.id}/report?lang=nl`, { headers: authHeaders(creds) })).text());
        assert.ok(report.includes(DUTCH_NOTE.nl));
        assert.match(report, /Sten/);
        assert.ok(/\d–\d/.test(report), 'the report shows bands');

        await portal('allow');
        const allowed = await results(dutch.id);
        for (const list of ['NormScores', 'NormScoresPercentage', 'StenBands'] as const)
          assert.equal(allowed[list].length, spi.scales.length, `allowed: ${list}`);
        assert.ok(allowed.Note.includes(DUTCH_NOTE.en), 'the note stays');
        assert.match(allowed.Note, /this portal's operator allows its stens and percentiles in the lists/);
        const shown = await runCli(['portal', 'show', '--key', creds.apiKeyId], cliEnv);
        assert.match(shown.stdout, /translated norms: +allow/);

        await portal('deny');
        const denied = await results(dutch.id);
        for (const list of NORMED) assert.deepEqual(denied[list], [], `denied again: ${list}`);
      },
    );

    test('--translated-norms takes allow or deny only', async () => {
      const wrong = await runCli(['portal', 'set', '--key', creds.apiKeyId, '--translated-norms', 'on'], cliEnv);
      assert.notEqual(wrong.code, 0);
      assert.match(wrong.stderr, /--translated-norms must be allow or deny/);
    });
  },
);
