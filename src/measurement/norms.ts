import { FIVE_POINTS, type ResponseRange } from './instruments/types.js';
import { normalCdf } from './distributions.js';
import { normalQuantile } from './reliability.js';

export { normalCdf };
import type { Norm, NormReliability, NormTable } from './types.js';

/** The sten of a z score: 5.5 + 2z, rounded half up, kept within 1–10. */
function stenOfZ(z: number): number {
  return Math.min(10, Math.max(1, Math.floor(5.5 + 2 * z + 0.5)));
}

/**
 * Standard ten, monotonic in the raw score. With the sample's distribution it is normalised: the
 * z of the mid-rank percentile on the normal curve, so sten and percentile always agree. Without
 * one it is linear, z = (raw − mean) / SD.
 */
export function sten(raw: number, norm: Norm, range: ResponseRange = FIVE_POINTS): number {
  if (!norm.distribution?.length) return stenOfZ((raw - norm.mean) / norm.sd);
  const p = midRank(raw, norm.distribution, range);
  return p <= 0 ? 1 : p >= 1 ? 10 : stenOfZ(normalQuantile(p));
}

/**
 * The stens a raw score on `range` can reach in this norm: sten is monotonic, so those of the
 * scale's lowest and highest points. A sample piled up at an end keeps the stens past it out of reach.
 */
export function reachableStens(norm: Norm, range: ResponseRange = FIVE_POINTS): { low: number; high: number } {
  return { low: sten(range.min, norm, range), high: sten(range.max, norm, range) };
}

/**
 * Percentile rank, 0–100, rounded. With the sample's distribution: the mid-rank (the share below
 * plus half the share at the value), at the scale's ends too; between the values the sample had,
 * interpolated linearly, and towards 0 at the response scale's lowest point and 100 at its highest
 * beyond them. Without one: the normal distribution's Φ(z). Rounded half up.
 */
export function percentile(raw: number, norm: Norm, range: ResponseRange = FIVE_POINTS): number {
  const p = norm.distribution?.length ? midRank(raw, norm.distribution, range) : normalCdf((raw - norm.mean) / norm.sd);
  // Summed shares carry float noise: a mid-rank of exactly 4.5 % would come out 4.4999… and round
  // down. Nine decimals drop the noise and keep every real difference (shares have six).
  return Math.min(100, Math.max(0, Math.round(Number((p * 100).toFixed(9)))));
}

type Curve = { values: Float64Array; ranks: Float64Array };

// Norm groups are cached for the process (store/norms.ts), so each distribution's curve is
// worked out once, not on every percentile of every result. A distribution belongs to one
// instrument, so one range: the cache keeps the range it was made for and checks it.
const curves = new WeakMap<ReadonlyArray<readonly [number, number]>, Curve & { range: ResponseRange }>();

/** The mid-rank at each value the sample had, with 0 at the scale's lowest point and 1 at its highest as the ends. */
function curveOf(distribution: ReadonlyArray<readonly [number, number]>, range: ResponseRange): Curve {
  let curve = curves.get(distribution);
  if (curve && curve.range.min === range.min && curve.range.max === range.max) return curve;
  const total = distribution.reduce((sum, [, share]) => sum + share, 0);
  const values = new Float64Array(distribution.length + 2);
  const ranks = new Float64Array(distribution.length + 2);
  values[0] = range.min;
  let below = 0;
  distribution.forEach(([value, share], i) => {
    values[i + 1] = value;
    ranks[i + 1] = (below + share / 2) / total;
    below += share;
  });
  values[distribution.length + 1] = range.max;
  ranks[distribution.length + 1] = 1;
  curve = { values, ranks, range };
  curves.set(distribution, curve);
  return curve;
}

function midRank(x: number, distribution: ReadonlyArray<readonly [number, number]>, range: ResponseRange): number {
  const { values, ranks } = curveOf(distribution, range);
  // At or beyond an end: the sample's own point there, if it has one, else 0 or 1.
  if (x <= range.min) return values[1] === range.min ? ranks[1]! : 0;
  if (x >= range.max) return values[values.length - 2] === range.max ? ranks[values.length - 2]! : 1;
  // The first point at or above x (values rise strictly inside; the ends may equal a sample value).
  let lo = 1;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  const v1 = values[lo]!;
  const v0 = values[lo - 1]!;
  const p1 = ranks[lo]!;
  const p0 = ranks[lo - 1]!;
  return v1 === v0 ? p1 : p0 + ((p1 - p0) * (x - v0)) / (v1 - v0);
}

/** Mean, sample SD and distribution of raw scores (two decimals, as they are reported). */
export function buildNorm(values: readonly number[]): Norm {
  const n = values.length;
  if (n < 2) throw new Error('a norm needs at least two values');
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const counts = new Map<number, number>();
  for (const v of values) {
    const key = Math.round(v * 100) / 100;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const distribution = [...counts].sort(([a], [b]) => a - b).map(([value, count]): [number, number] => [value, Math.round((count / n) * 1e6) / 1e6]);
  return { mean: Math.round(mean * 10_000) / 10_000, sd: Math.round(sd * 10_000) / 10_000, distribution };
}

/** Every problem with one norm entry, whose raw scores lie on `range`; [] when sound. */
export function normProblems(norm: unknown, label: string, range: ResponseRange = FIVE_POINTS): string[] {
  const { min, max } = range;
  const n = norm as Partial<Norm> | undefined;
  const problems: string[] = [];
  if (typeof n?.mean !== 'number' || n.mean < min || n.mean > max) problems.push(`${label}: mean must be a number from ${min} to ${max}`);
  if (typeof n?.sd !== 'number' || !(n.sd > 0) || n.sd > max - min) problems.push(`${label}: sd must be a number above 0 and at most ${max - min}`);
  if (n?.distribution !== undefined) {
    const d = n.distribution as unknown;
    if (!Array.isArray(d) || d.length === 0) return [...problems, `${label}: distribution must be a non-empty list of [value, share]`];
    let last = -Infinity;
    let total = 0;
    for (const point of d as unknown[]) {
      const [value, share] = Array.isArray(point) ? (point as unknown[]) : [];
      if (typeof value !== 'number' || typeof share !== 'number' || value < min || value > max || share < 0 || value <= last) {
        return [
          ...problems,
          `${label}: distribution must hold [value, share] pairs with values from ${min} to ${max} in increasing order and shares of at least 0`,
        ];
      }
      last = value;
      total += share;
    }
    if (Math.abs(total - 1) > 0.01) problems.push(`${label}: distribution shares must add up to 1 (they add up to ${total.toFixed(4)})`);
  }
  if (n?.reliability !== undefined) problems.push(...reliabilityProblems(n.reliability, label));
  return problems;
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Every problem with a norm's reliability (format 2); [] when sound. */
function reliabilityProblems(r: unknown, label: string): string[] {
  const rel = r as Partial<NormReliability> | null;
  if (typeof rel !== 'object' || rel === null) return [`${label}: reliability must be an object`];
  const problems: string[] = [];
  if (!isNumber(rel.alpha) || rel.alpha > 1) problems.push(`${label}: reliability.alpha must be a number of at most 1`);
  for (const key of ['alphaLower', 'alphaUpper'] as const) {
    if (rel[key] !== undefined && (!isNumber(rel[key]) || rel[key] > 1)) problems.push(`${label}: reliability.${key} must be a number of at most 1`);
  }
  if (isNumber(rel.alphaLower) && isNumber(rel.alphaUpper) && isNumber(rel.alpha) && !(rel.alphaLower <= rel.alpha && rel.alpha <= rel.alphaUpper)) {
    problems.push(`${label}: reliability.alpha must lie within alphaLower and alphaUpper`);
  }
  if (!isNumber(rel.sem) || rel.sem < 0) problems.push(`${label}: reliability.sem must be a number of at least 0`);
  if (!isNumber(rel.semSten) || rel.semSten < 0) problems.push(`${label}: reliability.semSten must be a number of at least 0`);
  if (rel.items !== undefined) {
    const optional = (x: unknown, ok: (v: number) => boolean) => x === undefined || (isNumber(x) && ok(x));
    const ok =
      Array.isArray(rel.items) &&
      rel.items.every((i) => typeof i?.id === 'string' && optional(i.itemRest, (v) => Math.abs(v) <= 1) && optional(i.alphaIfDeleted, (v) => v <= 1));
    if (!ok) problems.push(`${label}: reliability.items must be a list of {id, itemRest from -1 to 1, alphaIfDeleted of at most 1}`);
  }
  return problems;
}

/** Every problem with a norm table for these scales and competences, on the instrument's response scale. Competences may be left out. */
export function normTableProblems(
  table: Partial<NormTable> | undefined,
  scaleIds: readonly string[],
  competenceCodes: ReadonlySet<string>,
  range: ResponseRange,
): string[] {
  const problems: string[] = [];
  const scales = table?.scales;
  if (typeof scales !== 'object' || scales === null) return ['scales must be an object of norms by scale id'];
  for (const id of scaleIds) {
    if (!(id in scales)) problems.push(`scale "${id}" has no norm`);
    else problems.push(...normProblems(scales[id], `scale "${id}"`, range));
  }
  for (const id of Object.keys(scales)) if (!scaleIds.includes(id)) problems.push(`scale "${id}" is not a scale of this instrument`);
  const competences = table?.competences ?? {};
  if (typeof competences !== 'object' || competences === null) return [...problems, 'competences must be an object of norms by competence code'];
  for (const [code, norm] of Object.entries(competences)) {
    if (!competenceCodes.has(code)) problems.push(`competence "${code}" is not in the competence model`);
    else problems.push(...normProblems(norm, `competence "${code}"`, range));
  }
  return problems;
}
