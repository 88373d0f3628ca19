import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/deadline.js';
import fc from 'fast-check';
import { buildNorm, normalCdf, normProblems, percentile, sten } from '../../../src/domain/results/norms.js';
import type { Norm } from '../../../src/domain/results/types.js';

const raw = fc.double({ min: 1, max: 5, noNaN: true });
const normal: fc.Arbitrary<Norm> = fc.record({ mean: fc.double({ min: 1.5, max: 4.5, noNaN: true }), sd: fc.double({ min: 0.1, max: 1.5, noNaN: true }) });
// A sample of raw scores on the response scale, as a norm group is built from.
const sample = fc.array(fc.integer({ min: 100, max: 500 }).map((x) => x / 100), { minLength: 2, maxLength: 300 }).filter((xs) => new Set(xs).size > 1);
const anyNorm = fc.oneof(normal, sample.map(buildNorm));

describe('stens', () => {
  test('a sten is monotonic in the raw score and within 1–10', () => {
    fc.assert(
      fc.property(anyNorm, raw, raw, (norm, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        assert.ok(sten(lo, norm) <= sten(hi, norm));
        assert.ok(Number.isInteger(sten(lo, norm)) && sten(lo, norm) >= 1 && sten(hi, norm) <= 10);
      }),
      { numRuns: 2000 },
    );
  });

  test('the mean is sten 6 (5.5 rounded up); one SD above is 8, one below is 4', () => {
    const norm = { mean: 3, sd: 0.5 };
    assert.equal(sten(3, norm), 6);
    assert.equal(sten(3.5, norm), 8);
    assert.equal(sten(2.5, norm), 4);
    assert.equal(sten(5, norm), 10);
    assert.equal(sten(1, norm), 1);
  });
});

describe('percentiles', () => {
  test('a percentile lies within 0–100 and is monotonic in the raw score, with or without a distribution', () => {
    fc.assert(
      fc.property(anyNorm, raw, raw, (norm, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const p = percentile(lo, norm);
        assert.ok(Number.isInteger(p) && p >= 0 && p <= 100, String(p));
        assert.ok(p <= percentile(hi, norm));
      }),
      { numRuns: 2000 },
    );
  });

  test('the mid-rank of a value counts half the sample at it', () => {
    // Half the sample at 2, half at 4: 2 is the 25th percentile, 4 the 75th, 3 halfway between.
    const norm = buildNorm([2, 2, 4, 4]);
    assert.equal(percentile(2, norm), 25);
    assert.equal(percentile(4, norm), 75);
    assert.equal(percentile(3, norm), 50);
    assert.equal(percentile(1, norm), 0);
    assert.equal(percentile(5, norm), 100);
  });

  test('a percentile from a distribution is the mid-rank counted from the sample itself, linearly between its values', () => {
    // Counted from the raw values, not from the stored distribution the code reads.
    const byCounting = (values: readonly number[], x: number): number => {
      const xs = [...new Set(values)].sort((a, b) => a - b);
      const rank = (v: number) => (values.filter((y) => y < v).length + values.filter((y) => y === v).length / 2) / values.length;
      const points: Array<[number, number]> = [[1, 0], ...xs.map((v): [number, number] => [v, rank(v)]), [5, 1]];
      if (x <= 1) return 0;
      if (x >= 5) return 100;
      const i = points.findIndex(([v]) => v >= x);
      const [v0, p0] = points[i - 1]!;
      const [v1, p1] = points[i]!;
      return Math.round(100 * (v1 === v0 ? p1 : p0 + ((p1 - p0) * (x - v0)) / (v1 - v0)));
    };
    fc.assert(
      fc.property(sample, raw, (values, x) => {
        const norm = buildNorm(values);
        // Twice: the second call reads the curve worked out by the first.
        for (let i = 0; i < 2; i++) assert.ok(Math.abs(percentile(x, norm) - byCounting(values, x)) <= 1);
      }),
      { numRuns: 1000 },
    );
  });

  test('without a distribution the normal curve is used', () => {
    assert.equal(percentile(3, { mean: 3, sd: 1 }), 50);
    assert.equal(percentile(4, { mean: 3, sd: 1 }), 84);
    assert.ok(Math.abs(normalCdf(1.96) - 0.975) < 1e-4);
  });
});

describe('building a norm', () => {
  test('mean, sample SD and distribution shares that add up to one', () => {
    fc.assert(
      fc.property(sample, (values) => {
        const norm = buildNorm(values);
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        assert.ok(Math.abs(norm.mean - mean) < 1e-3);
        const total = norm.distribution!.reduce((a, [, share]) => a + share, 0);
        assert.ok(Math.abs(total - 1) < 1e-3);
        assert.deepEqual(normProblems(norm, 'x'), []);
      }),
    );
  });

  test('bad entries are named', () => {
    assert.match(normProblems({ mean: 7, sd: 1 }, 'scale "a"').join(), /scale "a": mean/);
    assert.match(normProblems({ mean: 3, sd: 0 }, 'x').join(), /sd must be/);
    assert.match(normProblems({ mean: 3, sd: 1, distribution: [[3, 0.5], [2, 0.5]] }, 'x').join(), /increasing order/);
    assert.match(normProblems({ mean: 3, sd: 1, distribution: [[2, 0.2], [3, 0.2]] }, 'x').join(), /add up to 1/);
  });
});
