import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import fc from 'fast-check';
import { compositeReliability, reliability, stenBand, stenSem } from '../../src/measurement/reliability.js';

/** A seeded generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
/** Standard normal draws (Box-Muller). */
function normal(next: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

const matrix = fc
  .integer({ min: 3, max: 8 })
  .chain((k) => fc.array(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: k, maxLength: k }), { minLength: 5, maxLength: 40 }));
const varied = (rows: number[][]) => rows[0]!.every((_, j) => new Set(rows.map((r) => r[j])).size > 1);

describe('the reliability engine, property by property', { timeout: 60_000 }, () => {
  test('alpha does not change when items or respondents are reordered', () => {
    fc.assert(
      fc.property(matrix.filter(varied), fc.integer(), (rows, seed) => {
        const next = random(seed);
        const itemOrder = [...rows[0]!.keys()].sort(() => next() - 0.5);
        const shuffled = [...rows].sort(() => next() - 0.5).map((r) => itemOrder.map((j) => r[j]!));
        const a = reliability(rows).alpha;
        const b = reliability(shuffled).alpha;
        return Number.isNaN(a) ? Number.isNaN(b) : Math.abs(a - b) < 1e-9;
      }),
      { numRuns: 200 },
    );
  });

  test('parallel items give alpha near 1, independent items near 0', () => {
    const z = normal(random(7));
    const parallel = Array.from({ length: 2000 }, () => {
      const trueScore = z();
      return Array.from({ length: 6 }, () => trueScore + 0.05 * z());
    });
    assert.ok(reliability(parallel).alpha > 0.99, `parallel: ${reliability(parallel).alpha}`);
    const independent = Array.from({ length: 2000 }, () => Array.from({ length: 6 }, () => z()));
    assert.ok(Math.abs(reliability(independent).alpha) < 0.1, `independent: ${reliability(independent).alpha}`);
  });

  test("Feldt's interval contains alpha and narrows with more respondents", () => {
    const z = normal(random(11));
    const sample = (n: number) =>
      Array.from({ length: n }, () => {
        const t = z();
        return Array.from({ length: 5 }, () => t + z());
      });
    const small = reliability(sample(100));
    const large = reliability(sample(3000));
    for (const r of [small, large]) assert.ok(r.alphaLower < r.alpha && r.alpha < r.alphaUpper);
    assert.ok(large.alphaUpper - large.alphaLower < small.alphaUpper - small.alphaLower);
  });

  test('the 90% sten band contains the sten and narrows as alpha rises', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 0, max: 0.98, noNaN: true }),
        fc.double({ min: 0.001, max: 0.02, noNaN: true }),
        (sten, alpha, step) => {
          const band = stenBand(sten, alpha);
          const tighter = stenBand(sten, alpha + step);
          return band.low <= sten && sten <= band.high && tighter.high - tighter.low <= band.high - band.low + 1e-12;
        },
      ),
    );
    // At alpha .70 a sten's SEM is 2·√.3 ≈ 1.095, and a 90% band is ±1.645 of it: about ±1.8.
    assert.ok(Math.abs(stenSem(0.7) - 1.0954) < 1e-4);
    const band = stenBand(5, 0.7);
    assert.ok(Math.abs(band.high - 5 - 1.8018) < 1e-3, `${band.high}`);
  });

  test("Mosier's composite reliability, against a hand calculation", () => {
    // Two uncorrelated parts, variances 4 and 9, reliabilities .8 and .6, weights 1 and 2:
    // true variance 1·4·.8 + 4·9·.6 = 24.8 of a total 1·4 + 4·9 = 40, so .62.
    assert.ok(
      Math.abs(
        compositeReliability(
          [1, 2],
          [
            [4, 0],
            [0, 9],
          ],
          [0.8, 0.6],
        ) - 0.62,
      ) < 1e-12,
    );
    // Correlated parts (covariance 3) raise it: error 4·.2 + 36·.4 = 15.2 of 40 + 2·2·3 = 52.
    assert.ok(
      Math.abs(
        compositeReliability(
          [1, 2],
          [
            [4, 3],
            [3, 9],
          ],
          [0.8, 0.6],
        ) -
          (1 - 15.2 / 52),
      ) < 1e-12,
    );
    // One part alone keeps its own reliability.
    assert.equal(compositeReliability([3], [[2]], [0.75]), 0.75);
  });
});
