import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { freshDatabaseUrl, testDatabases } from '../helpers/databases.js';
import { instruments, profileAnswers } from '../helpers/results.js';
import { tempDir } from '../helpers/server.js';
import { ROOT } from '../../src/platform/paths.js';

const tma170 = instruments.get(0)!;
const items = tma170.items.map((i) => i.id);
/** Φ(0.5): a mid-rank at or above it is sten 7 or more (sten = 5.5 + 2z rounded half up). */
const PHI_HALF = 0.6914624612740131;

interface Respondent {
  gender: '' | '1' | '2' | '3';
  age: string;
  /** Each scale's level: a careful respondent's scale mean (profileAnswers mirrors reversed items). */
  level: Map<string, number>;
  row: string[];
}

/**
 * 100 careful English respondents: 40-odd women, the rest men but for 4 neutral and 5 with no
 * gender; ages 18 to 67, a few unknown. Then 3 in Dutch and 2 who answer 3 to everything (flagged).
 */
function sampleFile(withGender: boolean): { csv: string; used: Respondent[] } {
  const used: Respondent[] = [];
  for (let seed = 0; seed < 100; seed++) {
    const { answer, level } = profileAnswers(tma170, seed);
    const gender = seed % 23 === 4 ? '3' : seed % 19 === 7 ? '' : seed % 5 < 2 || seed % 7 === 0 ? '2' : '1';
    used.push({ gender, age: seed % 17 === 3 ? 'NA' : String(18 + ((seed * 7) % 50)), level, row: items.map((id, i) => answer(`a_${id}`, i)) });
  }
  const header = withGender ? ['gender', 'age', 'language', ...items] : ['language', ...items];
  const line = (r: { gender: string; age: string; row: string[] }, lang: string) =>
    (withGender ? [r.gender, r.age, lang, ...r.row] : [lang, ...r.row]).join(',');
  const lines = [header.join(','), ...used.map((r) => line(r, 'en'))];
  for (const r of used.slice(0, 3)) lines.push(line(r, 'nl'));
  for (let k = 0; k < 2; k++) lines.push(line({ gender: '1', age: '30', row: items.map(() => '3') }, 'en'));
  return { csv: lines.join('\n') + '\n', used };
}

/** Cohen's d by hand, female minus male: from sums and sums of squares, the within SS over the whole N. */
function handD(male: number[], female: number[]): number {
  const ss = (xs: number[]) => xs.reduce((s, x) => s + x * x, 0) - xs.reduce((s, x) => s + x, 0) ** 2 / xs.length;
  const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return (avg(female) - avg(male)) / Math.sqrt((ss(male) + ss(female)) / (male.length + female.length));
}

for (const db of testDatabases()) {
  describe(`norms show: the sample's make-up, exclusions, gender differences and the SPI's form [${db}]`, { timeout: 120_000 }, () => {
    test('a group built from a CSV with genders prints the counts, the exclusions, and d and four-fifths equal to a hand count', async () => {
      const dir = tempDir();
      const env = { DATA_DIR: dir, DATABASE_URL: await freshDatabaseUrl(db, dir) };
      const { csv, used } = sampleFile(true);
      writeFileSync(join(dir, 'sample.csv'), csv);
      const built = await runCli(
        ['norms', 'build', '--from-csv', join(dir, 'sample.csv'), '--instrument', '0', '--name', 'Sheet', '--language', 'en', '--min-sample', '30', '--json'],
        env,
      );
      assert.equal(built.code, 0, built.stderr);
      const id = JSON.parse(built.stdout).id as string;
      const [text, json] = await Promise.all([runCli(['norms', 'show', id], env), runCli(['norms', 'show', id, '--json'], env)]);
      assert.equal(text.code, 0, text.stderr);
      assert.equal(json.code, 0, json.stderr);
      const sample = JSON.parse(json.stdout).sample;

      const count = (g: string) => used.filter((r) => r.gender === g).length;
      const [male, female, neutral, unknown] = [count('1'), count('2'), count('3'), count('')];
      assert.ok(male >= 30 && female >= 30 && neutral > 0 && unknown > 0, `${male} men, ${female} women, ${neutral} neutral, ${unknown} unknown`);
      assert.deepEqual(sample.gender, { male, female, neutral, unknown });
      assert.match(text.stdout, new RegExp(`gender: +${male} male, ${female} female, ${neutral} neutral, ${unknown} unknown`));
      assert.deepEqual(
        [sample.considered, sample.excluded.total, sample.excluded.reasons.OtherLanguage, sample.excluded.reasons.StraightLining],
        [105, 5, 3, 2],
      );
      assert.match(text.stdout, /exclusions: +5 of 105 left out \(.*2 StraightLining.*3 OtherLanguage/);
      const ages = used.filter((r) => r.age !== 'NA').map((r) => Number(r.age));
      assert.match(text.stdout, new RegExp(`age: +${Math.min(...ages)} to ${Math.max(...ages)}, median .*; ${100 - ages.length} unknown`));

      const phiMargins: number[] = [];
      for (const s of tma170.scales) {
        const levels = used.map((r) => r.level.get(s.id)!);
        const midRank = (x: number) => (levels.filter((l) => l < x).length + levels.filter((l) => l === x).length / 2) / levels.length;
        phiMargins.push(...levels.flatMap((l) => [Math.abs(midRank(l) - PHI_HALF), Math.abs(midRank(l) - (1 - PHI_HALF))]));
        const of = (g: string) => used.filter((r) => r.gender === g).map((r) => r.level.get(s.id)!);
        const rate = (xs: number[]) => xs.filter((x) => midRank(x) >= PHI_HALF).length / xs.length;
        // Sten 4 or less: a mid-rank below Φ(−0.5) = 1 − Φ(0.5).
        const lowRate = (xs: number[]) => xs.filter((x) => midRank(x) < 1 - PHI_HALF).length / xs.length;
        const d = handD(of('1'), of('2'));
        const [rm, rf] = [rate(of('1')), rate(of('2'))];
        const ratio = Math.min(rm, rf) / Math.max(rm, rf);
        const [lm, lf] = [lowRate(of('1')), lowRate(of('2'))];
        const ratioLow = Math.min(lm, lf) / Math.max(lm, lf);
        const got = sample.genderDifferences[s.id];
        assert.ok(Math.abs(got.d - d) < 1e-9, `${s.id}: d ${got.d}, by hand ${d}`);
        assert.ok(Math.abs(got.fourFifths - ratio) < 1e-9, `${s.id}: four-fifths ${got.fourFifths}, by hand ${ratio}`);
        assert.ok(Math.abs(got.fourFifthsLow - ratioLow) < 1e-9, `${s.id}: four-fifths at sten 4-, ${got.fourFifthsLow}, by hand ${ratioLow}`);
        assert.ok(got.dLower < got.d && got.d < got.dUpper, `${s.id}: the interval surrounds d`);
        assert.deepEqual([got.male.n, got.female.n], [male, female]);
        const printed = text.stdout.split('\n').find((l) => l.startsWith(`  ${s.name.en} `) && /%/.test(l));
        assert.ok(printed, `a gender row for ${s.name.en}`);
        // n male, n female, d, its interval (two words), the shares and ratio at sten 7+, then at sten 4-.
        const fields = printed.trim().split(/\s+/).slice(-11);
        assert.deepEqual(
          [fields[0], fields[1], fields[2], fields[3], fields[4], fields[7], fields[10]],
          [String(male), String(female), d.toFixed(2), `[${got.dLower.toFixed(2)},`, `${got.dUpper.toFixed(2)}]`, ratio.toFixed(2), ratioLow.toFixed(2)],
          printed,
        );
      }
      // The hand count of stens needs no value close to the sten 7 or sten 4 boundary, where rounded shares could tip it.
      assert.ok(Math.min(...phiMargins) > 1e-3, `closest mid-rank to Φ(±0.5): ${Math.min(...phiMargins)}`);
    });

    test('a group without gender says so; one stored without its account prints "not recorded"', async () => {
      const dir = tempDir();
      const env = { DATA_DIR: dir, DATABASE_URL: await freshDatabaseUrl(db, dir) };
      writeFileSync(join(dir, 'plain.csv'), sampleFile(false).csv);
      const built = await runCli(
        [
          'norms',
          'build',
          '--from-csv',
          join(dir, 'plain.csv'),
          '--instrument',
          '0',
          '--name',
          'No gender',
          '--language',
          'en',
          '--min-sample',
          '30',
          '--json',
        ],
        env,
      );
      assert.equal(built.code, 0, built.stderr);
      const shown = await runCli(['norms', 'show', JSON.parse(built.stdout).id], env);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /gender: +not recorded/);
      assert.match(shown.stdout, /age: +not recorded/);
      assert.match(shown.stdout, /not recorded: the sample has no gender/);
      assert.match(shown.stdout, /exclusions: +5 of 105 left out/, 'the exclusions are recorded all the same');

      // The same group as a norm file without its sample account: imported, nothing of it is made up.
      const file = JSON.parse((await runCli(['norms', 'show', JSON.parse(built.stdout).id, '--json'], env)).stdout);
      assert.ok(file.sample, 'the built group carries its account');
      delete file.sample;
      writeFileSync(join(dir, 'bare.json'), JSON.stringify(file));
      const imported = await runCli(['norms', 'import', join(dir, 'bare.json'), '--json'], env);
      assert.equal(imported.code, 0, imported.stderr);
      const bare = await runCli(['norms', 'show', JSON.parse(imported.stdout).id], env);
      assert.match(bare.stdout, /exclusions: +not recorded/);
      assert.match(bare.stdout, /gender: +not recorded/);
      assert.match(bare.stdout, /not recorded: this group was stored without its sample account/);
      const genderRows = (out: string) => out.split('\n').filter((l) => tma170.scales.some((sc) => l.startsWith(`  ${sc.name.en} `)) && /%/.test(l));
      assert.deepEqual(genderRows(bare.stdout), [], 'no gender rows');
      assert.deepEqual(genderRows(shown.stdout), [], 'no gender rows without gender');
    });

    test("the SPI's sheet says per scale its items against the published SPI and r with the published score, for a group of the content version loaded only", async () => {
      const dir = tempDir();
      const env = { DATA_DIR: dir, DATABASE_URL: await freshDatabaseUrl(db, dir) };
      const file = join(ROOT, 'content', 'norms', 'spi-sapa.json');
      const spiFile = JSON.parse(readFileSync(join(ROOT, 'content', 'instruments', 'spi.json'), 'utf8'));
      const show = async (path: string) => {
        const imported = await runCli(['norms', 'import', path, '--json'], env);
        assert.equal(imported.code, 0, imported.stderr);
        return (await runCli(['norms', 'show', JSON.parse(imported.stdout).id], env)).stdout;
      };
      const sheet = await show(file);
      assert.match(sheet, /Form: 120 of the 135 items of the published form \(psychTools::spi\.keys, 32 scales\)/);
      assert.match(sheet, /left out: Conservatism \(5 items\)/);
      for (const s of spiFile.scales) {
        const items = spiFile.items.filter((i: any) => i.scale === s.id || (i.alsoScales ?? []).some((a: any) => a.scale === s.id)).length;
        const row = new RegExp(`^  ${s.name.en} +${items} of ${s.published.items} +${s.published.r.toFixed(3)}$`, 'm');
        assert.match(sheet, row, s.id);
      }
      // A group of an earlier content version had other items: the figures are not printed for it.
      const older = JSON.parse(readFileSync(file, 'utf8'));
      older.contentVersion = '1.0.0';
      writeFileSync(join(dir, 'older.json'), JSON.stringify(older));
      const old = await show(join(dir, 'older.json'));
      assert.match(old, /not shown: this group was built under content version 1\.0\.0, the figures are for 2\.1\.0/);
      assert.doesNotMatch(old, /Authoritarianism +3 of 5/);
      assert.match(sheet, /Authoritarianism +3 of 5 +0\.913/, 'positive control: the current group prints it');
      // The careless indices: each threshold and false-positive rate as the file records them, and the rates by age band.
      const c = JSON.parse(readFileSync(file, 'utf8')).careless;
      for (const [ix, i] of Object.entries<any>(c.indices))
        assert.match(
          sheet,
          new RegExp(`^  ${ix} .* ${i.direction === 'low' ? 'below' : 'above'} ${i.threshold} +${(100 * i.falsePositive).toFixed(2)}%$`, 'm'),
          ix,
        );
      assert.match(sheet, new RegExp(`together: ${(100 * c.flagged).toFixed(2)}% of the sample flagged \\(at most 1\\.00%\\)`));
      assert.match(sheet, /by age: under 25 \d+ of 1,613 \(\d\.\d\d%\); 25-34 \d+ of 932/);
    });
  });
}
