import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import fc from 'fast-check';
import { buildNorm, normalCdf, normProblems, percentile, sten } from '../../src/measurement/norms.js';
import type { Norm } from '../../src/measurement/types.js';
import { midRankByCounting, percentileByCounting, STEN_BANDS, STEN_PERCENTILE_EDGES, stenOfShare, stenOfZ } from '../helpers/norm-oracle.js';

const raw = fc.double({ min: 1, max: 5, noNaN: true });
// A raw score as scores are reported: two decimals.
const hundredths = fc.integer({ min: 100, max: 500 }).map((x) => x / 100);
const normal: fc.Arbitrary<Norm> = fc.record({ mean: fc.double({ min: 1.5, max: 4.5, noNaN: true }), sd: fc.double({ min: 0.1, max: 1.5, noNaN: true }) });
// A sample of raw scores on the response scale, as a norm group is built from.
const sample = fc
  .array(
    fc.integer({ min: 100, max: 500 }).map((x) => x / 100),
    { minLength: 2, maxLength: 300 },
  )
  .filter((xs) => new Set(xs).size > 1);
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

  test('every sten is the published band of half an SD that holds z, inside each band and at both of its edges', () => {
    // Mean 3, SD 0.5: raw = 3 + z / 2, exact in binary for these z.
    const norm = { mean: 3, sd: 0.5 };
    const rawAt = (z: number) => 3 + z / 2;
    const published: Array<[z: number, sten: number]> = [
      [-4, 1],
      [-2.25, 1],
      [-2, 2],
      [-1.75, 2],
      [-1.5, 3],
      [-1.25, 3],
      [-1, 4],
      [-0.75, 4],
      [-0.5, 5],
      [-0.25, 5],
      [0, 6],
      [0.25, 6],
      [0.5, 7],
      [0.75, 7],
      [1, 8],
      [1.25, 8],
      [1.5, 9],
      [1.75, 9],
      [2, 10],
      [2.25, 10],
      [4, 10],
    ];
    for (const [z, expected] of published) {
      assert.equal(stenOfZ(z), expected, `the table itself at z = ${z}`);
      assert.equal(sten(rawAt(z), norm), expected, `z = ${z}`);
    }
    // Just below each inner edge, the band beneath.
    for (const [band, edge] of STEN_BANDS.slice(1)) assert.equal(sten(rawAt(edge) - 1e-9, norm), band - 1, `just below z = ${edge}`);
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

  test('a percentile from a distribution is the mid-rank counted from the sample itself, at the ends too, linearly between its values', () => {
    fc.assert(
      fc.property(sample, hundredths, (values, x) => {
        const norm = buildNorm(values);
        // Twice: the second call reads the curve worked out by the first.
        for (let i = 0; i < 2; i++) assert.ok(Math.abs(percentile(x, norm) - percentileByCounting(values, x)) <= 1);
      }),
      { numRuns: 1000 },
    );
  });

  test('at the ends the percentile is the mid-rank of those who scored there, not 0 or 100', () => {
    // 60 people at 3.00 and 40 at the top, 5.00: the top is percentile 60 + 40/2 = 80, and 4.99 is
    // on the line from 3.00 (30) to 5.00 (80). A bottom nobody scored stays 0.
    const norm = buildNorm([...Array<number>(60).fill(3), ...Array<number>(40).fill(5)]);
    assert.equal(percentile(5, norm), 80);
    assert.equal(percentile(4.99, norm), 80);
    assert.equal(percentile(4, norm), 55);
    assert.equal(percentile(1, norm), 0);
    const floor = buildNorm([...Array<number>(25).fill(1), ...Array<number>(75).fill(2)]);
    assert.equal(percentile(1, floor), 13, 'the bottom holds a quarter: 12.5, rounded half up');
  });

  test('with a distribution, the sten is the band of the normal curve its percentile falls in, so the two always agree', () => {
    fc.assert(
      fc.property(sample, hundredths, (values, x) => {
        const norm = buildNorm(values);
        const [num, den] = midRankByCounting(values, x);
        // Stored shares have six decimals: a rank within a hair of a band's edge may land either side.
        const near = STEN_PERCENTILE_EDGES.some((edge) => Math.abs(num / den - edge) < 1e-4);
        return near || sten(x, norm) === stenOfShare(num / den);
      }),
      { numRuns: 1000 },
    );
    // A skewed group (mean 4.0): raw 4.0 is below the median here, and its sten says so too.
    const skewed = buildNorm([...Array<number>(30).fill(3), ...Array<number>(20).fill(4), ...Array<number>(50).fill(5)]);
    assert.equal(percentile(4, skewed), 40);
    assert.equal(sten(4, skewed), 5, 'percentile 40 lies in the band of sten 5 (30.9 to 50)');
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
    assert.match(
      normProblems(
        {
          mean: 3,
          sd: 1,
          distribution: [
            [3, 0.5],
            [2, 0.5],
          ],
        },
        'x',
      ).join(),
      /increasing order/,
    );
    assert.match(
      normProblems(
        {
          mean: 3,
          sd: 1,
          distribution: [
            [2, 0.2],
            [3, 0.2],
          ],
        },
        'x',
      ).join(),
      /add up to 1/,
    );
  });
});
