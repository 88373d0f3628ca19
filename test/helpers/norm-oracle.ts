import assert from 'node:assert/strict';

/**
 * Oracles for stens and percentiles that restate no code of src/: the published sten bands as a
 * table, and the mid-rank counted from the raw sample (docs/RESULTS.md, "How the scores are made").
 */

/**
 * The standard ten: bands half an SD wide around the mean, sten 5 and 6 meeting at the mean.
 * Each row: the sten and the lowest z inside its band (a band holds its lower edge).
 */
export const STEN_BANDS: ReadonlyArray<readonly [sten: number, fromZ: number]> = [
  [1, -Infinity],
  [2, -2.0],
  [3, -1.5],
  [4, -1.0],
  [5, -0.5],
  [6, 0.0],
  [7, 0.5],
  [8, 1.0],
  [9, 1.5],
  [10, 2.0],
];

/** The sten whose band holds `z`, looked up in the table. */
export function stenOfZ(z: number): number {
  let found = STEN_BANDS[0]![0];
  for (const [sten, fromZ] of STEN_BANDS) if (z >= fromZ) found = sten;
  return found;
}

export const stenOf = (raw: number, norm: { mean: number; sd: number }): number => stenOfZ((raw - norm.mean) / norm.sd);

/** The raw sample a stored distribution of `sampleSize` people stands for: each value, share × N times. */
export function sampleOf(distribution: ReadonlyArray<readonly [number, number]>, sampleSize: number): number[] {
  return distribution.flatMap(([value, share]) => Array<number>(Math.round(share * sampleSize)).fill(value));
}

/**
 * The sten bands as shares of the normal curve: Φ at z = −2, −1.5, … 2, from a standard normal
 * table. A normalised sten is 1 + the number of these a percentile reaches.
 */
export const STEN_PERCENTILE_EDGES: readonly number[] = [0.02275, 0.066807, 0.158655, 0.308538, 0.5, 0.691462, 0.841345, 0.933193, 0.97725];

/** The normalised sten of a percentile rank `p` (0–1), looked up in the table. */
export const stenOfShare = (p: number): number => 1 + STEN_PERCENTILE_EDGES.filter((edge) => p >= edge).length;

/**
 * The documented mid-rank, counted from the sample, as a fraction [numerator, denominator]: at a
 * value the sample has, (how many lie below + half of those equal) / N, at the scale's ends too;
 * between two such values, on the straight line joining them; beyond the sample, on the line to 0
 * at the scale's bottom (1) or to 1 at its top (5). Counted in whole numbers (scores have two
 * decimals), so a rank of exactly x.5 % is seen as one.
 */
export function midRankByCounting(sample: readonly number[], x: number): [number, number] {
  const hundredths = (v: number) => Math.round(v * 100);
  const values = sample.map(hundredths);
  const n = values.length;
  // Each point: a value and twice its rank count (2·below + equal), over 2N.
  const twiceRank = (v: number) => 2 * values.filter((y) => y < v).length + values.filter((y) => y === v).length;
  const present = [...new Set(values)].sort((a, b) => a - b);
  const X = Math.min(500, Math.max(100, hundredths(x)));
  if (present.includes(X)) return [twiceRank(X), 2 * n];
  if (X === 100) return [0, 1];
  if (X === 500) return [1, 1];
  const points: Array<[number, number]> = [
    ...(present[0] === 100 ? [] : ([[100, 0]] as Array<[number, number]>)),
    ...present.map((v): [number, number] => [v, twiceRank(v)]),
    ...(present.at(-1) === 500 ? [] : ([[500, 2 * n]] as Array<[number, number]>)),
  ];
  const i = points.findIndex(([v]) => v > X);
  const [v1, r1] = points[i]!;
  const [v0, r0] = points[i - 1]!;
  // (r0 + (r1 − r0)(X − v0)/(v1 − v0)) / 2N, as one fraction of whole numbers.
  return [r0 * (v1 - v0) + (r1 - r0) * (X - v0), 2 * n * (v1 - v0)];
}

/** The percentile, 0–100: the counted mid-rank, rounded half up. */
export function percentileByCounting(sample: readonly number[], x: number): number {
  const [num, den] = midRankByCounting(sample, x);
  return Math.floor((200 * num + den) / (2 * den));
}

/** The normalised sten from the counted mid-rank. */
export function normalisedStenByCounting(sample: readonly number[], x: number): number {
  const [num, den] = midRankByCounting(sample, x);
  return stenOfShare(num / den);
}

/**
 * The percentile rank of a raw score the sample had, by hand from the shipped distribution: the
 * share of the sample below it plus half the share at it, over all shares (docs/RESULTS.md, "Results").
 */
export function midRankAt(distribution: ReadonlyArray<readonly [number, number]>, raw: number): number {
  const total = distribution.reduce((sum, [, share]) => sum + share, 0);
  const below = distribution.filter(([value]) => value < raw - 1e-9).reduce((sum, [, share]) => sum + share, 0);
  const at = distribution.find(([value]) => Math.abs(value - raw) < 1e-9);
  assert.ok(at, `the sample had ${raw}`);
  return (below + at[1] / 2) / total;
}
