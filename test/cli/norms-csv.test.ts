import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { freshDatabaseUrl, testDatabases } from '../helpers/databases.js';
import { instruments, profileAnswers } from '../helpers/results.js';
import { tempDir } from '../helpers/server.js';

const tma170 = instruments.get(0)!;
const items = tma170.items.map((i) => i.id);

/** A careful respondent's answers, in the column order of `items`, with each scale's level. */
function careful(seed: number): { row: string[]; level: Map<string, number> } {
  const { answer, level } = profileAnswers(tma170, seed);
  return { row: items.map((id, i) => answer(`a_${id}`, i)), level };
}

/**
 * 35 careful English respondents (profiles by seed), 3 in Dutch and 2 who answer 3 to everything
 * (straight-lining, and no consistency: flagged, as a stored assessment would be).
 */
function goodFile(): { csv: string; expectedMeans: Map<string, number> } {
  const header = ['age', ...items, 'gender', 'language'];
  const lines = [header.join(',')];
  const sums = new Map(tma170.scales.map((s) => [s.id, 0]));
  for (let seed = 0; seed < 35; seed++) {
    const { row, level } = careful(seed);
    for (const [id, l] of level) sums.set(id, sums.get(id)! + l);
    lines.push([String(20 + seed), ...row, seed % 2 ? '1' : '2', 'en'].join(','));
  }
  for (let seed = 0; seed < 3; seed++) lines.push(['40', ...careful(seed).row, '0', 'nl'].join(','));
  for (let k = 0; k < 2; k++) lines.push(['NA', ...items.map(() => '3'), '', '"en"'].join(','));
  // Each careful respondent answers a scale's every item at its level (reversed items mirrored): the scale mean is that level.
  return { csv: lines.join('\r\n') + '\r\n', expectedMeans: new Map([...sums].map(([id, s]) => [id, s / 35])) };
}

for (const db of testDatabases()) {
  describe(`norms build --from-csv [${db}]`, { timeout: 120_000 }, () => {
    test('builds a group through the same scoring and exclusions as stored assessments, and states them and the N', async () => {
      const dir = tempDir();
      const env = { DATA_DIR: dir, DATABASE_URL: await freshDatabaseUrl(db, dir) };
      const { csv, expectedMeans } = goodFile();
      writeFileSync(join(dir, 'answers.csv'), csv);
      const r = await runCli(
        [
          'norms',
          'build',
          '--from-csv',
          join(dir, 'answers.csv'),
          '--instrument',
          '0',
          '--name',
          'From a file',
          '--language',
          'en',
          '--min-sample',
          '30',
          '--about',
          'Volunteers of a test.',
          '--description-en',
          'Forty volunteers of a test.',
          '--description-nl',
          'Veertig vrijwilligers van een test.',
          '--json',
        ],
        env,
      );
      assert.equal(r.code, 0, r.stderr);
      const built = JSON.parse(r.stdout);
      assert.deepEqual([built.read, built.otherLanguage, built.excluded, built.sampleSize], [40, 3, 2, 35]);
      const shown = await runCli(['norms', 'show', built.id, '--json'], env);
      assert.equal(shown.code, 0, shown.stderr);
      const group = JSON.parse(shown.stdout);
      assert.equal(group.sampleSize, 35);
      assert.deepEqual(group.description, { en: 'Forty volunteers of a test.', nl: 'Veertig vrijwilligers van een test.' });
      assert.deepEqual([group.language, group.contentVersion, group.active], ['en', tma170.version, false]);
      assert.match(
        group.source,
        /^Volunteers of a test\. Built by Assay from answers\.csv: 40 respondents read, 3 in another language than en left out, 2 with integrity flags left out, N = 35\. Sample: gender 17 male, 18 female; age 20 to 54, median 37\.$/,
      );
      for (const s of tma170.scales)
        assert.ok(Math.abs(group.scales[s.id].mean - expectedMeans.get(s.id)!) < 1e-4, `${s.id}: ${group.scales[s.id].mean} vs ${expectedMeans.get(s.id)}`);
      // A respondent at one level per scale answers each scale's items alike: alpha 1, as the stored path records it.
      assert.equal(group.scales[tma170.scales[0]!.id].reliability.alpha, 1);

      // Dutch: only the three Dutch rows, too few.
      const dutch = await runCli(
        ['norms', 'build', '--from-csv', join(dir, 'answers.csv'), '--instrument', '0', '--name', 'Dutch', '--language', 'nl', '--min-sample', '30'],
        env,
      );
      assert.equal(dutch.code, 1);
      assert.match(dutch.stderr, /3 usable completed assessments \(0 more had integrity flags\); at least 30 are needed/);
    });

    test('bad rows refuse the file, each named by its row number (the header is row 1)', async () => {
      const dir = tempDir();
      const env = { DATA_DIR: dir, DATABASE_URL: await freshDatabaseUrl(db, dir) };
      const lines = [['gender', ...items].join(',')];
      for (let seed = 0; seed < 40; seed++) lines.push(['1', ...careful(seed).row].join(','));
      const bad = (n: number, f: (row: string[]) => string[]) => (lines[n - 1] = f(lines[n - 1]!.split(',')).join(','));
      bad(3, (row) => row.map((v, i) => (i === 5 ? '7' : v)));
      bad(6, (row) => row.map((v, i) => (i === 9 ? '' : v)));
      bad(9, (row) => row.slice(1));
      bad(12, (row) => ['5', ...row.slice(1)]);
      writeFileSync(join(dir, 'bad.csv'), lines.join('\n'));
      const r = await runCli(
        ['norms', 'build', '--from-csv', join(dir, 'bad.csv'), '--instrument', '0', '--name', 'Bad', '--language', 'en', '--min-sample', '30'],
        env,
      );
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`row 3: item ${items[4]} is "7", not an answer from 1 to 5`));
      assert.match(r.stderr, new RegExp(`row 6: item ${items[8]} is empty`));
      assert.match(r.stderr, /row 9: 170 fields, the header has 171/);
      assert.match(r.stderr, /row 12: gender is "5", not a Gender code 0 to 3/);
      assert.doesNotMatch(r.stderr, /row (2|4|5|7|8|10|11|13):/, 'the good rows are not named');
      const list = await runCli(['norms', 'list', '--json'], env);
      assert.deepEqual(JSON.parse(list.stdout), [], 'nothing stored');

      writeFileSync(join(dir, 'header.csv'), [['telepathy', ...items.slice(1)].join(','), ['1', ...careful(0).row.slice(1)].join(',')].join('\n'));
      const header = await runCli(['norms', 'build', '--from-csv', join(dir, 'header.csv'), '--instrument', '0', '--name', 'Bad', '--language', 'en'], env);
      assert.equal(header.code, 1);
      assert.match(header.stderr, /row 1: column "telepathy" is neither an item of TMA170/);
      assert.match(header.stderr, new RegExp(`row 1: 1 items of TMA170 have no column \\(${items[0]}\\)`));
    });

    test('--out writes a norm file, without a database, that norms import takes', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'answers.csv'), goodFile().csv);
      const args = [
        'norms',
        'build',
        '--from-csv',
        join(dir, 'answers.csv'),
        '--instrument',
        '0',
        '--name',
        'Written',
        '--language',
        'en',
        '--min-sample',
        '30',
        '--out',
        join(dir, 'norms.json'),
        '--json',
      ];
      const written = await runCli(args, { DATA_DIR: join(dir, 'none'), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
      assert.equal(written.code, 0, written.stderr);
      const file = JSON.parse(readFileSync(join(dir, 'norms.json'), 'utf8'));
      assert.deepEqual([file.format, file.instrument, file.sampleSize, file.illustrative], ['assay-norms/2', 'TMA170', 35, false]);
      const again = await runCli(args, { DATA_DIR: join(dir, 'none') });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(readFileSync(join(dir, 'norms.json'), 'utf8'), JSON.stringify(file, null, 2) + '\n', 'the same file from the same answers');
      const env = { DATA_DIR: dir, DATABASE_URL: await freshDatabaseUrl(db, dir) };
      const imported = await runCli(['norms', 'import', join(dir, 'norms.json'), '--json'], env);
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(JSON.parse(imported.stdout).sampleSize, 35);
    });
  });
}
