import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { instruments } from '../helpers/results.js';

const tma170 = instruments.get(0)!;

// The norm files the CLI refuses, on a server of their own (norms.test.ts has the groups' life, on each database).
// What is refused is decided before the database is asked: the first of the run's databases.
// No example norms: this suite starts with no norm group at all.
suiteOnEachDatabase('norm files the CLI refuses', { on: 'first', env: { EXAMPLE_NORMS: 'false' }, tenant: false }, ({ db, server, cliEnv: env }) => {
  async function cli(...args: string[]) {
    const r = await runCli(args, env);
    assert.equal(r.code, 0, `assay ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  test('a broken norm file is refused with every problem', async () => {
    const file = join(server.dataDir, 'broken.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'assay-norms/1',
        name: 'Broken',
        instrument: 'TMA170',
        source: 'x',
        sampleSize: 10,
        scales: { achievement: { mean: 9, sd: -1 } },
      }),
    );
    const r = await runCli(['norms', 'import', file], env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /scale "achievement": mean must be a number from 1 to 5/);
    assert.match(r.stderr, /scale "autonomy" has no norm/);
    const missing = await runCli(['norms', 'activate', 'no-such-group'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No norm group "no-such-group"/);
  });

  test('control characters in name or source, and a source of 1 MB, are refused; the same file without them imports', async () => {
    const file = join(server.dataDir, 'text.json');
    const scales = Object.fromEntries(tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5 }]));
    const base = { format: 'assay-norms/1', instrument: 'TMA170', sampleSize: 100, scales, name: `Clean name ${db}`, source: 'A test publisher' };
    const refused = async (fields: Record<string, string>, message: RegExp) => {
      writeFileSync(file, JSON.stringify({ ...base, ...fields }));
      const r = await runCli(['norms', 'import', file], env);
      assert.equal(r.code, 1, `${JSON.stringify(fields).slice(0, 80)}: ${r.stdout}`);
      assert.match(r.stderr, message);
    };
    // ESC starts terminal sequences (a title change, a colour); BEL, CSI (C1) and RLO likewise.
    for (const [c, code] of [
      ['\u001b]0;owned\u0007', '001B'],
      ['\u0007', '0007'],
      ['\u009b31m', '009B'],
      ['\u202e', '202E'],
    ]) {
      await refused({ name: `Evil ${c} group` }, new RegExp(`name contains a character that is not allowed \\(U\\+${code}`));
      await refused({ source: `From ${c} here` }, new RegExp(`source contains a character that is not allowed \\(U\\+${code}`));
    }
    await refused({ source: 'x'.repeat(1024 * 1024) }, /source must be at most 2000 characters/);
    const list = await runCli(['norms', 'list'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!list.stdout.includes('\u001b'), 'norms list prints no escape sequence');
    assert.doesNotMatch(list.stdout, /Evil/);
    const build = await runCli(['norms', 'build', '--instrument', '0', '--name', 'Evil \u001b[2J', '--language', 'en', '--min-sample', '30'], env);
    assert.equal(build.code, 1, build.stdout);
    assert.match(build.stderr, /--name contains a character that is not allowed \(U\+001B/);
    // Positive control: the same file, without them, at the longest source allowed.
    writeFileSync(file, JSON.stringify({ ...base, source: 's'.repeat(2000) }));
    const imported = await cli('norms', 'import', file, '--json');
    const shown = (await cli('norms', 'list', '--json')).find((g: any) => g.id === imported.id);
    assert.equal(shown?.name, `Clean name ${db}`);
  });

  test("terminal escapes in a key of the sample's exclusion reasons or age bands are refused by import, unquoted; the same file with plain keys imports and shows them", async () => {
    const file = join(server.dataDir, 'sample-keys.json');
    const scales = Object.fromEntries(tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5 }]));
    const base = { format: 'assay-norms/2', instrument: 'TMA170', sampleSize: 100, scales, name: `Sample keys ${db}`, source: 'A test publisher' };
    const withKeys = (reason: string, band: string) => ({
      ...base,
      sample: {
        considered: 110,
        excluded: { total: 10, reasons: { [reason]: 10 } },
        age: { known: 100, unknown: 0, min: 20, max: 60, median: 38, bands: { [band]: 100 } },
      },
    });
    for (const [reason, band, message] of [
      ['Speeding\u001b]0;owned\u0007', '25-34', /a key of sample\.excluded\.reasons contains a character that is not allowed \(U\+001B/],
      ['Speeding', '25-34\u0007', /a key of sample\.age\.bands contains a character that is not allowed \(U\+0007/],
    ] as const) {
      writeFileSync(file, JSON.stringify(withKeys(reason, band)));
      const r = await runCli(['norms', 'import', file], env);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, message);
      assert.ok(!['\u0007', '\u001b'].some((c) => (r.stdout + r.stderr).includes(c)), 'the refusal does not print the key');
    }
    const list = await runCli(['norms', 'list'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.doesNotMatch(list.stdout, /Sample keys/);
    // Positive control: the same file with plain keys imports, and norms show prints them.
    writeFileSync(file, JSON.stringify(withKeys('Speeding', '25-34')));
    const imported = await cli('norms', 'import', file, '--json');
    const shown = await runCli(['norms', 'show', imported.id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /10 Speeding/);
    assert.match(shown.stdout, /25-34/);
  });

  test('a description over 300 characters, with a control character or in another language is refused by import, and a long one or a control character by build; the same file without them imports', async () => {
    const file = join(server.dataDir, 'described.json');
    const scales = Object.fromEntries(tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5 }]));
    const base = { format: 'assay-norms/2', instrument: 'TMA170', sampleSize: 100, scales, name: `Described ${db}`, source: 'A test publisher' };
    const refused = async (description: unknown, message: RegExp) => {
      writeFileSync(file, JSON.stringify({ ...base, description }));
      const r = await runCli(['norms', 'import', file], env);
      assert.equal(r.code, 1, `${JSON.stringify(description).slice(0, 80)}: ${r.stdout}`);
      assert.match(r.stderr, message);
    };
    await refused({ en: 'fine', nl: 'x'.repeat(301) }, /description\.nl must be at most 300 characters \(it has 301\)/);
    await refused({ en: 'Web \u001b]0;owned\u0007 volunteers' }, /description\.en contains a character that is not allowed \(U\+001B/);
    await refused({ en: 'Web \u202e volunteers' }, /description\.en contains a character that is not allowed \(U\+202E/);
    await refused({ en: 'fine', de: 'Freiwillige' }, /description may only have the languages "en" and "nl"/);
    await refused('Web volunteers', /description must be an object of texts by language/);
    for (const [option, text, message] of [
      ['--description-nl', 'Vrij\u0007willigers', /--description-nl contains a character that is not allowed \(U\+0007/],
      ['--description-en', 'x'.repeat(301), /--description-en must be at most 300 characters/],
    ] as const) {
      const build = await runCli(['norms', 'build', '--instrument', '0', '--name', 'Described', '--language', 'en', '--min-sample', '30', option, text], env);
      assert.equal(build.code, 1, `${option}: ${build.stdout}`);
      assert.match(build.stderr, message);
    }
    // Positive control: the same file, with descriptions at the longest allowed, imports and keeps them.
    const description = { en: 'e'.repeat(300), nl: 'n'.repeat(300) };
    writeFileSync(file, JSON.stringify({ ...base, description }));
    const imported = await cli('norms', 'import', file, '--json');
    const shown = await cli('norms', 'show', imported.id, '--json');
    assert.deepEqual([shown.name, shown.description], [`Described ${db}`, description]);
  });
});
