/**
 * Oracles for stens and percentiles that restate no code of src/: the published sten bands as a
 * table, and the mid-rank counted from the raw sample (README, "How the scores are made").
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
 * The documented percentile, counted from the sample: at a value the sample has, (how many lie
 * below + half of those equal) / N × 100; between two such values, on the straight line joining
 * them; 0 at the scale's bottom (1) and 100 at its top (5). Rounded half up. Counted in whole
 * numbers (scores have two decimals), so a rank of exactly x.5 is seen as one.
 */
export function percentileByCounting(sample: readonly number[], x: number): number {
  const hundredths = (v: number) => Math.round(v * 100);
  const X = hundredths(x);
  if (X <= 100) return 0;
  if (X >= 500) return 100;
  const n = sample.length;
  const values = sample.map(hundredths);
  // Each point: a value and twice its rank count (2·below + equal), over 2N.
  const twiceRank = (v: number) => 2 * values.filter((y) => y < v).length + values.filter((y) => y === v).length;
  // A sample value at 1 or 5 stands next to the scale's end, and is the point used beside it.
  const points: Array<[number, number]> = [[100, 0], ...[...new Set(values)].sort((a, b) => a - b).map((v): [number, number] => [v, twiceRank(v)]), [500, 2 * n]];
  const i = points.findIndex(([v]) => v >= X);
  const [v1, r1] = points[i]!;
  const [v0, r0] = v1 === X ? [v1 - 1, r1] : points[i - 1]!;
  // 100 · (r0 + (r1 − r0)(X − v0)/(v1 − v0)) / 2N, as one fraction of whole numbers.
  const num = 100 * (r0 * (v1 - v0) + (r1 - r0) * (X - v0));
  const den = 2 * n * (v1 - v0);
  return Math.floor((2 * num + den) / (2 * den));
}
