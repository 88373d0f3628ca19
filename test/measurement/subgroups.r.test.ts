import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { cohensD, fourFifthsRatio, genderDifference } from '../../src/measurement/subgroups.js';
import { runR } from '../helpers/r.js';

/** A seeded uniform generator, so the sample is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('subgroup differences in a norm sample', { timeout: 120_000 }, () => {
  test("Cohen's d equals R psych::cohen.d on groups of unequal size and spread, to 6 decimals", () => {
    const next = random(7);
    const z = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    const a = Array.from({ length: 43 }, () => 3 + 0.6 * z());
    const b = Array.from({ length: 71 }, () => 3.4 + 0.9 * z());
    const r = runR(
      `suppressMessages(library(psych)); x <- c(${[...a, ...b].join(',')}); g <- c(rep(1, ${a.length}), rep(2, ${b.length}));` +
        ` cat(sprintf('%.10f', cohen.d(x, g)$cohen.d[2]))`,
    );
    const expected = Number(r.trim());
    assert.ok(Math.abs(expected) > 0.3, `a real difference to compare: ${expected}`);
    assert.equal(cohensD(a, b)!.toFixed(6), expected.toFixed(6));
    assert.equal(cohensD(b, a)!.toFixed(6), (-expected).toFixed(6), 'the sign follows the order');
  });

  test('the four-fifths ratio is the lower share of high scorers over the higher, counted here', () => {
    // 20 of 50 (0.40) against 18 of 60 (0.30): 0.30 / 0.40.
    const close = (x: number | null, want: number) => assert.ok(x !== null && Math.abs(x - want) < 1e-12, `${x} is not ${want}`);
    close(fourFifthsRatio({ count: 20, n: 50 }, { count: 18, n: 60 }), 0.75);
    close(fourFifthsRatio({ count: 18, n: 60 }, { count: 20, n: 50 }), 0.75);
    assert.equal(fourFifthsRatio({ count: 0, n: 50 }, { count: 0, n: 60 }), null, 'nobody scores high: no ratio');
    assert.equal(fourFifthsRatio({ count: 5, n: 0 }, { count: 3, n: 60 }), null, 'an empty group: no ratio');
  });

  test('men and women are compared on their raw scores and their shares of sten 7 or more; unknown and neutral genders are left out', () => {
    const members = [
      ...Array.from({ length: 40 }, (_, i) => ({ gender: 1, raw: i < 20 ? 2 : 4, sten: i < 10 ? 8 : 4 })),
      ...Array.from({ length: 40 }, (_, i) => ({ gender: 2, raw: i < 10 ? 2 : 4, sten: i < 16 ? 7 : 5 })),
      ...Array.from({ length: 25 }, () => ({ gender: 0, raw: 5, sten: 10 })),
      ...Array.from({ length: 25 }, () => ({ gender: 3, raw: 5, sten: 10 })),
    ];
    const diff = genderDifference(members);
    assert.deepEqual({ n: diff.male.n, high: diff.male.high, mean: diff.male.mean }, { n: 40, high: 10, mean: 3 });
    assert.deepEqual({ n: diff.female.n, high: diff.female.high, mean: diff.female.mean }, { n: 40, high: 16, mean: 3.5 });
    // Men: 20 at 2 and 20 at 4, SS 40; women: 10 at 2 and 30 at 4, SS 30; pooled over N = 80: sqrt(70 / 80).
    assert.equal(diff.d!.toFixed(6), (0.5 / Math.sqrt(70 / 80)).toFixed(6));
    assert.equal(diff.fourFifths, 10 / 40 / (16 / 40));
  });

  test('with fewer than 30 in a group only the counts are given', () => {
    const members = [
      ...Array.from({ length: 29 }, () => ({ gender: 1, raw: 3, sten: 7 })),
      ...Array.from({ length: 40 }, (_, i) => ({ gender: 2, raw: i % 2 ? 2 : 4, sten: 5 })),
    ];
    const diff = genderDifference(members);
    assert.equal(diff.male.n, 29);
    assert.equal(diff.female.n, 40);
    assert.equal(diff.d, null);
    assert.equal(diff.fourFifths, null);
    // Positive control: one more man and both figures appear.
    const full = genderDifference([...members, { gender: 1, raw: 3, sten: 7 }]);
    assert.notEqual(full.d, null);
    assert.notEqual(full.fourFifths, null);
  });
});
