import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../../helpers/deadline.js';
import { instrumentProblems } from '../../../src/measurement/instruments/validate.js';
import type { Instrument } from '../../../src/measurement/instruments/types.js';
import { NormError, parseNormFile } from '../../../src/measurement/norm-groups.js';
import { integrityFlags } from '../../../src/measurement/integrity.js';
import { ROOT } from '../../../src/platform/paths.js';
import { competences, instruments } from './content.js';

const spi = instruments.get(2)!;
const copy = (): Instrument => structuredClone(spi);
const file = () => JSON.parse(readFileSync(join(ROOT, 'content', 'norms', 'spi-sapa.json'), 'utf8'));
const none = { answers: new Map<string, number>(), pageMs: new Map<number, number>() };

describe('SPI antonym pairs and norm-file thresholds', () => {
  test('antonym pairs may join items of different scales; unknown, repeated or identical items and both kinds of pairs at once are refused', () => {
    const inst = copy();
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

  test('a norm file carries its consistency threshold into the group; other pairs, a version 1 file or a bad threshold are refused', () => {
    const group = parseNormFile(file(), instruments, competences);
    assert.equal(group.table.consistency?.threshold, file().consistency.threshold);
    const wrongPairs = file();
    wrongPairs.consistency.pairs.reverse();
    assert.throws(
      () => parseNormFile(wrongPairs, instruments, competences),
      (e: Error) => e instanceof NormError && /consistencyAntonyms, in order/.test(e.message),
    );
    const badThreshold = file();
    badThreshold.consistency.threshold = 101;
    assert.throws(() => parseNormFile(badThreshold, instruments, competences), /consistency.threshold must be a number from 0 to 100/);
    const v1 = file();
    v1.format = 'assay-norms/1';
    assert.throws(() => parseNormFile(v1, instruments, competences), /consistency needs format "assay-norms\/2"/);
  });

  test('LowConsistency for antonym pairs: at or below the group threshold, not above it, and never without one', () => {
    const flags = (consistency: number, consistencyThreshold?: number) => integrityFlags({ instrument: spi, ...none, consistency, consistencyThreshold });
    assert.ok(flags(5, 5).includes('LowConsistency'));
    assert.ok(!flags(6, 5).includes('LowConsistency'));
    assert.ok(!flags(0).includes('LowConsistency'), 'the fixed 30 is for synonym pairs');
  });
});
