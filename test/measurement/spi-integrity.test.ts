import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { instrumentProblems } from '../../src/measurement/instruments/validate.js';
import type { Instrument } from '../../src/measurement/instruments/types.js';
import { NormError, parseNormFile } from '../../src/measurement/norm-groups.js';
import { integrityFlags } from '../../src/measurement/integrity.js';
import { ROOT } from '../../src/platform/paths.js';
import { competences, instruments } from '../helpers/content.js';

const spi = instruments.get(2)!;
/** The SPI with two antonym pairs of items from different scales, as an instrument may declare them. */
const withAntonyms = (): Instrument => {
  const inst = structuredClone(spi);
  const [a, b, c, d] = inst.items;
  inst.consistencyAntonyms = [
    [a!.id, d!.id],
    [b!.id, c!.id],
  ];
  return inst;
};
const copy = withAntonyms;
const file = () => JSON.parse(readFileSync(join(ROOT, 'content', 'norms', 'spi-sapa.json'), 'utf8'));
const none = { answers: new Map<string, number>(), pageMs: new Map<number, number>() };

describe('SPI integrity: antonym pairs an instrument may declare, and the norm file careless block', () => {
  test('antonym pairs may join items of different scales; unknown, repeated or identical items and both kinds of pairs at once are refused', () => {
    const inst = copy();
    assert.notEqual(inst.items[0]!.scale, inst.items[3]!.scale);
    assert.deepEqual(instrumentProblems(inst, 'SPI'), []);
    const [a, b] = inst.consistencyAntonyms![0]!;
    const c = inst.consistencyAntonyms![1]![0];
    inst.consistencyAntonyms = [
      [a!, a!],
      [b!, 'nope'],
      [c!, b!],
    ];
    inst.consistencyPairs = [];
    const problems = instrumentProblems(inst, 'SPI').join('\n');
    assert.match(problems, /consistencyAntonyms\[0\] must be two different items/);
    assert.match(problems, /consistencyAntonyms\[1\] names an unknown item/);
    assert.match(problems, /is in two consistency pairs/);
    assert.match(problems, /consistencyPairs or consistencyAntonyms, not both/);
  });

  test('a norm file carries its careless block into the group; a bad direction, a covariance not positive definite, a version 1 file or a consistency block for the SPI are refused', () => {
    const group = parseNormFile(file(), instruments, competences);
    assert.deepEqual(group.table.careless, file().careless);
    assert.equal(group.table.consistency, undefined);
    const wrongSide = file();
    wrongSide.careless.indices.Outlier.direction = 'low';
    assert.throws(
      () => parseNormFile(wrongSide, instruments, competences),
      (e: Error) => e instanceof NormError && /careless.indices.Outlier must give direction "high"/.test(e.message),
    );
    const singular = file();
    singular.careless.outlier.covariance[5][5] = -1;
    assert.throws(() => parseNormFile(singular, instruments, competences), /careless.outlier.covariance must be positive definite/);
    const short = file();
    short.careless.outlier.mean.pop();
    assert.throws(() => parseNormFile(short, instruments, competences), /careless.outlier must give SPI's items in order/);
    const v1 = file();
    v1.format = 'assay-norms/1';
    assert.throws(() => parseNormFile(v1, instruments, competences), /careless needs format "assay-norms\/2"/);
    const old = file();
    old.consistency = { pairs: [], percentile: 1, threshold: 5 };
    assert.throws(() => parseNormFile(old, instruments, competences), /consistency: SPI has no antonym pairs/);
  });

  test('LowConsistency for antonym pairs: at or below the group threshold, not above it, and never without one', () => {
    const inst = withAntonyms();
    const flags = (consistency: number, consistencyThreshold?: number) => integrityFlags({ instrument: inst, ...none, consistency, consistencyThreshold });
    assert.ok(flags(5, 5).includes('LowConsistency'));
    assert.ok(!flags(6, 5).includes('LowConsistency'));
    assert.ok(!flags(0).includes('LowConsistency'), 'the fixed 30 is for synonym pairs');
  });
});
