import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../../helpers/deadline.js';
import { InstrumentError, loadInstruments } from '../../../src/measurement/instruments/load.js';
import { scoreAnswers } from '../../../src/measurement/instruments/scoring.js';
import type { Instrument } from '../../../src/measurement/instruments/types.js';
import { instrumentProblems } from '../../../src/measurement/instruments/validate.js';
import { BUILT_IN_CONTENT_DIR } from '../../../src/platform/paths.js';
import { tempDir } from '../../helpers/server.js';

const read = (code: string): Instrument => JSON.parse(readFileSync(join(BUILT_IN_CONTENT_DIR, `${code}.json`), 'utf8'));

describe('the shipped instruments', () => {
  test('load and validate: TMA170 has 170 items and TMA312 has 312', () => {
    const all = loadInstruments(BUILT_IN_CONTENT_DIR);
    assert.equal(all.get(0)?.code, 'TMA170');
    assert.equal(all.get(0)?.items.length, 170);
    assert.equal(all.get(1)?.code, 'TMA312');
    assert.equal(all.get(1)?.items.length, 312);
  });

  test('the short form is a subset of the full form, item for item', () => {
    const full = new Map(read('tma312').items.map((i) => [i.id, i]));
    for (const item of read('tma170').items) assert.deepEqual(item, full.get(item.id));
  });

  test('both forms designate the same consistency pairs: one per scale, keyed opposite ways, all in the short form', () => {
    const short = read('tma170');
    assert.deepEqual(read('tma312').consistencyPairs, short.consistencyPairs);
    const items = new Map(short.items.map((i) => [i.id, i]));
    const scales = short.consistencyPairs!.map(([a, b]) => {
      assert.equal(items.get(a)?.scale, items.get(b)?.scale, `${a} and ${b}`);
      assert.notEqual(items.get(a)?.keying, items.get(b)?.keying, `${a} and ${b}`);
      return items.get(a)!.scale;
    });
    assert.deepEqual(
      scales,
      short.scales.map((s) => s.id),
    );
  });

  test('scale numbers are 1 to 26 in both forms, the same for each scale', () => {
    assert.deepEqual(
      read('tma170').scales.map((s) => [s.id, s.number]),
      read('tma312').scales.map((s, i) => [s.id, i + 1]),
    );
  });
});

describe('instrument validation', () => {
  const good = () => read('tma170');

  test('a sound file has no problems', () => {
    assert.deepEqual(instrumentProblems(good(), 'TMA170'), []);
  });

  test('a wrong item count is reported', () => {
    const inst = good();
    inst.items.pop();
    assert.ok(instrumentProblems(inst, 'TMA170').some((p) => p.includes('must have 170 items, found 169')));
  });

  test('an item on an unknown scale is reported', () => {
    const inst = good();
    inst.items[3]!.scale = 'telepathy';
    assert.ok(instrumentProblems(inst, 'TMA170').some((p) => p.includes('unknown scale "telepathy"')));
  });

  test('a missing language is reported, for items, scales and labels', () => {
    const inst = good();
    (inst.items[0]!.text as Record<string, string>).nl = '';
    delete (inst.scales[0]!.name as Partial<Record<string, string>>).en;
    inst.responseScale.labels.nl = ['x'];
    const problems = instrumentProblems(inst, 'TMA170');
    assert.ok(
      problems.some((p) => p.includes(`item "${inst.items[0]!.id}" text has no nl text`)),
      problems.join('\n'),
    );
    assert.ok(problems.some((p) => p.includes('name has no en text')));
    assert.ok(problems.some((p) => p.includes('labels.nl must hold 5 labels')));
  });

  test('duplicate ids, bad keying and the wrong type are reported', () => {
    const inst = good();
    inst.items[1]!.id = inst.items[0]!.id;
    (inst.items[2] as { keying: string }).keying = 'sideways';
    const problems = instrumentProblems(inst, 'TMA312');
    assert.ok(problems.some((p) => p.includes('appears twice')));
    assert.ok(problems.some((p) => p.includes('keying')));
    assert.ok(problems.some((p) => p.includes('code must be "TMA312"')));
  });

  test('bad consistency pairs and scale numbers are reported', () => {
    const inst = good();
    inst.consistencyPairs = [
      [inst.items[0]!.id, inst.items[1]!.id],
      ['M001', 'nope'],
      [inst.items[0]!.id, inst.items[26]!.id],
    ];
    inst.scales[1]!.number = inst.scales[0]!.number;
    const problems = instrumentProblems(inst, 'TMA170').join('\n');
    assert.match(problems, /consistencyPairs\[0\] must be two items of one scale/);
    assert.match(problems, /consistencyPairs\[1\] names an unknown item/);
    assert.match(problems, /is in two consistency pairs/);
    assert.match(problems, /scale number 1 appears twice/);
  });

  test('ASSESSMENT_CONTENT_DIR content is loaded, and refused with the reasons when broken', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tma312.json'), JSON.stringify(read('tma312')));
    const broken = good();
    broken.items = broken.items.slice(0, 100);
    writeFileSync(join(dir, 'tma170.json'), JSON.stringify(broken));
    assert.throws(
      () => loadInstruments(dir),
      (e: unknown) => e instanceof InstrumentError && /tma170\.json is not a valid TMA170[\s\S]*found 100/.test(e.message),
    );
    writeFileSync(join(dir, 'tma170.json'), '{ not json');
    assert.throws(() => loadInstruments(dir), /Cannot read .*tma170\.json/);
    writeFileSync(join(dir, 'tma170.json'), JSON.stringify(good()));
    assert.equal(loadInstruments(dir).get(0)?.items.length, 170);
  });
});

describe('scoring', () => {
  test('means per scale, negatively keyed items reversed', () => {
    const inst = read('tma170');
    const all5 = new Map(inst.items.map((i) => [i.id, 5]));
    const scores = scoreAnswers(inst, all5);
    assert.equal(scores.length, inst.scales.length);
    for (const s of scores) {
      const items = inst.items.filter((i) => i.scale === s.scale);
      const negatives = items.filter((i) => i.keying === 'negative').length;
      assert.equal(s.items, items.length);
      assert.equal(s.raw, 5 * (items.length - negatives) + 1 * negatives);
      assert.equal(s.mean, Math.round((s.raw / s.items) * 100) / 100);
    }
  });

  test('a perfectly consistent high scorer gets 5 on every scale', () => {
    const inst = read('tma312');
    const answers = new Map(inst.items.map((i) => [i.id, i.keying === 'positive' ? 5 : 1]));
    for (const s of scoreAnswers(inst, answers)) assert.equal(s.mean, 5);
  });

  test('an incomplete set cannot be scored', () => {
    const inst = read('tma170');
    assert.throws(() => scoreAnswers(inst, new Map()), /unanswered/);
  });
});
