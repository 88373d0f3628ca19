/** The API's Gender codes that form subgroups: 1 male, 2 female. 0 (unknown) and 3 (neutral) form none. */
export const SUBGROUP_GENDERS = { 1: 'male', 2: 'female' } as const;

/** Fewer members than this in either group: no difference is reported, only the counts. */
export const MIN_SUBGROUP = 30;

/** A sten of 7 or more counts as scoring high, the share the four-fifths ratio compares. */
export const HIGH_STEN = 7;

export interface SubgroupFigures {
  n: number;
  mean: number;
  /** How many scored sten 7 or more. */
  high: number;
}

export interface GenderDifference {
  male: SubgroupFigures;
  female: SubgroupFigures;
  /** Cohen's d, female minus male; null when a group is too small or there is no spread. */
  d: number | null;
  /** The lower group's share of high scorers over the higher group's; null when a group is too small or neither scores high. */
  fourFifths: number | null;
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

/** The four-fifths rule's ratio (US Uniform Guidelines, 1978): the lower selection rate over the higher. */
export function fourFifthsRatio(a: { high: number; n: number }, b: { high: number; n: number }): number | null {
  if (a.n === 0 || b.n === 0) return null;
  const ra = a.high / a.n;
  const rb = b.high / b.n;
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
  });
  const male = figures(men);
  const female = figures(women);
  const enough = men.length >= MIN_SUBGROUP && women.length >= MIN_SUBGROUP;
  return {
    male,
    female,
    d: enough
      ? cohensD(
          men.map((m) => m.raw),
          women.map((m) => m.raw),
        )
      : null,
    fourFifths: enough ? fourFifthsRatio(male, female) : null,
  };
}
