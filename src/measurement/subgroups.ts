import { noncentralTCdf } from './distributions.js';

/** The API's Gender codes that form subgroups: 1 male, 2 female. 0 (unknown) and 3 (neutral) form none. */
export const SUBGROUP_GENDERS = { 1: 'male', 2: 'female' } as const;

/** Fewer members than this in either group: no difference is reported, only the counts. */
export const MIN_SUBGROUP = 30;

/** A sten of 7 or more counts as scoring high, 4 or less as scoring low: the shares the four-fifths ratios compare. */
export const HIGH_STEN = 7;
export const LOW_STEN = 4;

/** The four-fifths rule: a ratio of selection rates below this is the Uniform Guidelines' sign of adverse impact. */
export const FOUR_FIFTHS = 0.8;

export interface SubgroupFigures {
  n: number;
  mean: number;
  /** How many scored sten 7 or more. */
  high: number;
  /** How many scored sten 4 or less. */
  low: number;
}

export interface GenderDifference {
  male: SubgroupFigures;
  female: SubgroupFigures;
  /** Cohen's d, female minus male; null when a group is too small or there is no spread. */
  d: number | null;
  /** d's 95% interval (psych::cohen.d's, from the noncentral t); null with d, or where no bound is found. */
  dLower: number | null;
  dUpper: number | null;
  /** The lower group's share of high scorers over the higher group's; null when a group is too small or neither scores high. */
  fourFifths: number | null;
  /** The same for the shares at sten 4 or less: a cut screening out the low scorers. */
  fourFifthsLow: number | null;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const squares = (xs: readonly number[], m: number) => xs.reduce((s, x) => s + (x - m) ** 2, 0);

/**
 * Cohen's d of `b` against `a`: the difference of means over the pooled within-group SD. The
 * within-group sum of squares is divided by the whole N, as R's psych::cohen.d does, so the two agree.
 */
export function cohensD(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 2 || b.length < 2) return null;
  const ma = mean(a);
  const mb = mean(b);
  const pooled = Math.sqrt((squares(a, ma) + squares(b, mb)) / (a.length + b.length));
  return pooled > 0 ? (mb - ma) / pooled : null;
}

/**
 * d's confidence interval as R's psych::cohen.d gives it (cohen.d.ci): d as a t on n1 + n2 − 2
 * degrees of freedom, each bound the noncentrality at which that t sits at the other tail, back in d.
 */
export function cohensDInterval(d: number, n1: number, n2: number, level = 0.95): { lower: number; upper: number } | null {
  if (n1 < 2 || n2 < 2 || !Number.isFinite(d)) return null;
  const scale = Math.sqrt(1 / n1 + 1 / n2);
  const t = d / scale;
  const df = n1 + n2 - 2;
  const tail = (1 - level) / 2;
  // The noncentrality where P(T ≤ t) is p: the CDF falls as ncp rises. psych searches the same span.
  const ncpAt = (p: number): number | null => {
    let lo = Math.min(-5, -Math.abs(t) * 10);
    let hi = Math.max(5, Math.abs(t) * 10);
    if (noncentralTCdf(t, df, lo) < p || noncentralTCdf(t, df, hi) > p) return null;
    for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
      const mid = (lo + hi) / 2;
      if (noncentralTCdf(t, df, mid) > p) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  const lower = ncpAt(1 - tail);
  const upper = ncpAt(tail);
  return lower === null || upper === null ? null : { lower: lower * scale, upper: upper * scale };
}

/** The four-fifths rule's ratio (US Uniform Guidelines, 1978): the lower selection rate over the higher. */
export function fourFifthsRatio(a: { count: number; n: number }, b: { count: number; n: number }): number | null {
  if (a.n === 0 || b.n === 0) return null;
  const ra = a.count / a.n;
  const rb = b.count / b.n;
  const top = Math.max(ra, rb);
  return top > 0 ? Math.min(ra, rb) / top : null;
}

/** One scale's difference between women and men in a norm sample: each member's raw score and sten. */
export function genderDifference(members: ReadonlyArray<{ gender: number | null | undefined; raw: number; sten: number }>): GenderDifference {
  const of = (code: number) => members.filter((m) => m.gender === code);
  const men = of(1);
  const women = of(2);
  const figures = (ms: typeof men): SubgroupFigures => ({
    n: ms.length,
    mean: ms.length ? mean(ms.map((m) => m.raw)) : NaN,
    high: ms.filter((m) => m.sten >= HIGH_STEN).length,
    low: ms.filter((m) => m.sten <= LOW_STEN).length,
  });
  const male = figures(men);
  const female = figures(women);
  const enough = men.length >= MIN_SUBGROUP && women.length >= MIN_SUBGROUP;
  const d = enough
    ? cohensD(
        men.map((m) => m.raw),
        women.map((m) => m.raw),
      )
    : null;
  const interval = d === null ? null : cohensDInterval(d, men.length, women.length);
  const ratio = (pick: (f: SubgroupFigures) => number) =>
    enough ? fourFifthsRatio({ count: pick(male), n: male.n }, { count: pick(female), n: female.n }) : null;
  return {
    male,
    female,
    d,
    dLower: interval?.lower ?? null,
    dUpper: interval?.upper ?? null,
    fourFifths: ratio((f) => f.high),
    fourFifthsLow: ratio((f) => f.low),
  };
}
