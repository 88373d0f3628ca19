import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { cohensD, cohensDInterval, fourFifthsRatio, genderDifference } from '../../src/measurement/subgroups.js';
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

  test("d's 95% interval equals psych::cohen.d's (noncentral t) to 4 decimals, for small and large groups and both signs", () => {
    const cases: Array<[number, number, number]> = [
      [0.416, 1417, 1910],
      [-0.582, 1417, 1910],
      [0.021, 300, 400],
      [0.8, 30, 35],
      [-1.2, 31, 40],
      [2.5, 45, 30],
    ];
    const r = runR(
      `suppressMessages(library(psych)); for (x in list(${cases.map((c) => `c(${c.join(',')})`).join(',')})) ` +
        `cat(sprintf('%.10f %.10f\\n', psych::cohen.d.ci(x[1], n1 = x[2], n2 = x[3])[1], psych::cohen.d.ci(x[1], n1 = x[2], n2 = x[3])[3]))`,
    );
    const rows = r
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(Number));
    assert.equal(rows.length, cases.length);
    cases.forEach(([d, n1, n2], i) => {
      const ours = cohensDInterval(d, n1, n2)!;
      const [lower, upper] = rows[i]!;
      assert.ok(
        Math.abs(ours.lower - lower!) < 5e-5 && Math.abs(ours.upper - upper!) < 5e-5,
        `d ${d} (${n1}, ${n2}): [${ours.lower}, ${ours.upper}], R [${lower}, ${upper}]`,
      );
      // Positive control: not the symmetric large-sample interval at small n, where the two differ.
      assert.ok(ours.lower < d && d < ours.upper);
    });
    const wide = cohensDInterval(2.5, 45, 30)!;
    assert.notEqual((wide.upper - 2.5).toFixed(3), (2.5 - wide.lower).toFixed(3), 'asymmetric where d is large and n small');
    assert.equal(cohensDInterval(0.5, 1, 40), null, 'a group of one: no interval');
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
    assert.deepEqual({ n: diff.male.n, high: diff.male.high, low: diff.male.low, mean: diff.male.mean }, { n: 40, high: 10, low: 30, mean: 3 });
    assert.deepEqual({ n: diff.female.n, high: diff.female.high, low: diff.female.low, mean: diff.female.mean }, { n: 40, high: 16, low: 0, mean: 3.5 });
    // Men: 20 at 2 and 20 at 4, SS 40; women: 10 at 2 and 30 at 4, SS 30; pooled over N = 80: sqrt(70 / 80).
    assert.equal(diff.d!.toFixed(6), (0.5 / Math.sqrt(70 / 80)).toFixed(6));
    assert.equal(diff.fourFifths, 10 / 40 / (16 / 40));
    // At sten 4 or less: 30 of 40 men, no woman: the ratio is 0.
    assert.equal(diff.fourFifthsLow, 0);
    assert.ok(diff.dLower! < diff.d! && diff.d! < diff.dUpper!);
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
    assert.deepEqual([diff.dLower, diff.dUpper, diff.fourFifthsLow], [null, null, null]);
    // Positive control: one more man and both figures appear.
    const full = genderDifference([...members, { gender: 1, raw: 3, sten: 7 }]);
    assert.notEqual(full.d, null);
    assert.notEqual(full.fourFifths, null);
    assert.notEqual(full.dLower, null);
  });
});
