import { fQuantile } from './distributions.js';

/** Respondents × items: row r holds respondent r's scored answers, reverse-keyed items already reversed. */
export type ItemMatrix = ReadonlyArray<ReadonlyArray<number>>;

export interface ItemStatistics {
  /** Corrected item-total correlation: the item against the sum of the other items. */
  itemRest: number;
  /** Cronbach's alpha of the scale without this item. */
  alphaIfDeleted: number;
  mean: number;
  sd: number;
}

export interface Reliability {
  respondents: number;
  items: number;
  /** Cronbach's alpha (raw, from covariances). */
  alpha: number;
  /** Feldt's 95% confidence interval for alpha. */
  alphaLower: number;
  alphaUpper: number;
  /** Mean and SD of the item sum. */
  mean: number;
  sd: number;
  /** Standard error of measurement of the item sum: SD·√(1−α). */
  sem: number;
  itemStatistics: ItemStatistics[];
}

/** Reverse-keys the listed columns on a scale from `min` to `max`: x becomes min + max − x. */
export function reverseKeyed(rows: ItemMatrix, reversed: ReadonlySet<number>, min: number, max: number): number[][] {
  return rows.map((row) => row.map((x, j) => (reversed.has(j) ? min + max - x : x)));
}

function covariance(rows: ItemMatrix, k: number): number[][] {
  const n = rows.length;
  const means = new Array<number>(k).fill(0);
  for (const row of rows) for (let j = 0; j < k; j++) means[j]! += row[j]! / n;
  const cov = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const row of rows) {
    for (let i = 0; i < k; i++) {
      const di = row[i]! - means[i]!;
      for (let j = i; j < k; j++) cov[i]![j]! += di * (row[j]! - means[j]!);
    }
  }
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      cov[i]![j]! /= n - 1;
      cov[j]![i] = cov[i]![j]!;
    }
  }
  return cov;
}

/** Alpha from a covariance matrix, over the items in `keep`. */
function alphaOf(cov: number[][], keep: readonly number[]): number {
  const k = keep.length;
  let total = 0;
  let diagonal = 0;
  for (const i of keep) {
    diagonal += cov[i]![i]!;
    for (const j of keep) total += cov[i]![j]!;
  }
  return total > 0 ? (k / (k - 1)) * (1 - diagonal / total) : Number.NaN;
}

/**
 * Feldt's (1965) confidence interval for alpha: (1 − α)·F is distributed as 1 − α̂ with
 * n − 1 and (n − 1)(k − 1) degrees of freedom.
 */
export function feldtInterval(alpha: number, respondents: number, items: number, level = 0.95): { lower: number; upper: number } {
  const df1 = respondents - 1;
  const df2 = (respondents - 1) * (items - 1);
  const tail = (1 - level) / 2;
  return { lower: 1 - (1 - alpha) * fQuantile(1 - tail, df1, df2), upper: 1 - (1 - alpha) * fQuantile(tail, df1, df2) };
}

/** Item analysis of one scale: alpha with its interval, SEM, and each item's statistics. Needs at least 2 items and 3 respondents. */
export function reliability(rows: ItemMatrix): Reliability {
  const n = rows.length;
  const k = rows[0]?.length ?? 0;
  if (k < 2 || n < 3) throw new RangeError(`reliability needs at least 2 items and 3 respondents, got ${k} and ${n}`);
  if (rows.some((r) => r.length !== k)) throw new RangeError('every respondent needs an answer to every item');
  const cov = covariance(rows, k);
  const all = [...Array(k).keys()];
  const alpha = alphaOf(cov, all);
  let variance = 0;
  for (const i of all) for (const j of all) variance += cov[i]![j]!;
  const sd = Math.sqrt(variance);
  const { lower, upper } = feldtInterval(alpha, n, k);
  const itemStatistics = all.map((i) => {
    const rest = all.filter((j) => j !== i);
    // cov(item, rest) and var(rest) from the same matrix: no second pass over the data.
    let covRest = 0;
    let varRest = 0;
    for (const j of rest) {
      covRest += cov[i]![j]!;
      for (const l of rest) varRest += cov[j]![l]!;
    }
    const itemSd = Math.sqrt(cov[i]![i]!);
    return {
      itemRest: covRest / (itemSd * Math.sqrt(varRest)),
      alphaIfDeleted: rest.length >= 2 ? alphaOf(cov, rest) : Number.NaN,
      mean: rows.reduce((s, r) => s + r[i]!, 0) / n,
      sd: itemSd,
    };
  });
  const mean = rows.reduce((s, r) => s + r.reduce((a, b) => a + b, 0), 0) / n;
  return {
    respondents: n,
    items: k,
    alpha,
    alphaLower: lower,
    alphaUpper: upper,
    mean,
    sd,
    sem: sd * Math.sqrt(1 - Math.min(1, Math.max(0, alpha))),
    itemStatistics,
  };
}

/** The standard error of measurement in sten units: stens have an SD of 2. */
export function stenSem(alpha: number): number {
  return 2 * Math.sqrt(1 - Math.max(0, Math.min(1, alpha)));
}

/** A two-sided band of `level` around a sten, clipped to 1–10: ±z·SEM (z = 1.645 for 90%). */
export function stenBand(sten: number, alpha: number, level = 0.9): { low: number; high: number } {
  const z = normalQuantile(0.5 + level / 2);
  const half = z * stenSem(alpha);
  return { low: Math.max(1, sten - half), high: Math.min(10, sten + half) };
}

/**
 * Mosier's (1943) reliability of a weighted composite Σ wᵢXᵢ: 1 − Σ wᵢ²σᵢ²(1 − rᵢ) / σ²_C, where
 * σ²_C = Σᵢ Σⱼ wᵢwⱼσᵢⱼ. `covariance` is the components' covariance matrix, `reliabilities` each one's.
 */
export function compositeReliability(
  weights: readonly number[],
  covarianceMatrix: ReadonlyArray<ReadonlyArray<number>>,
  reliabilities: readonly number[],
): number {
  let composite = 0;
  let error = 0;
  for (let i = 0; i < weights.length; i++) {
    for (let j = 0; j < weights.length; j++) composite += weights[i]! * weights[j]! * covarianceMatrix[i]![j]!;
    error += weights[i]! ** 2 * covarianceMatrix[i]![i]! * (1 - reliabilities[i]!);
  }
  return 1 - error / composite;
}

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.6968302866538, 220.946098424521, -275.928510446969, 138.357751867269, -30.6647980661472, 2.50662827745924];
  const b = [-54.4760987982241, 161.585836858041, -155.698979859887, 66.8013118877197, -13.2806815528857];
  const c = [-0.00778489400243029, -0.322396458041136, -2.40075827716184, -2.54973253934373, 4.37466414146497, 2.93816398269878];
  const d = [0.00778469570904146, 0.32246712907004, 2.445134137143, 3.75440866190742];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
