import type { Instrument, ScaleScore } from './instruments/types.js';
import { sten } from './norms.js';
import { genderDifference, MIN_SUBGROUP } from './subgroups.js';
import type { IntegrityFlag, NormSampleAccount, NormTable } from './types.js';

/** What the account needs of a sample member (norm-groups.ts SampleMember). */
interface Member {
  scales: readonly ScaleScore[];
  flags: readonly IntegrityFlag[];
  /** The API's Gender code; undefined where the sample does not record gender. */
  gender?: number | null;
  /** Whole years; undefined or null where unknown. */
  age?: number | null;
}

/** Age bands of the make-up: each from its lower bound up to the next. */
export const AGE_BANDS = [
  ['under 25', 0],
  ['25-34', 25],
  ['35-44', 35],
  ['45-54', 45],
  ['55 and over', 55],
] as const;

const GENDER_KEYS = ['unknown', 'male', 'female', 'neutral'] as const;

/**
 * The account of a norm sample: who was left out and why, the make-up of the members used, and
 * each scale's difference between women and men, with stens against the group's own table. Gender
 * counts as recorded when any member has it; the same for age.
 */
export function describeSample(sample: readonly Member[], table: NormTable, instrument: Instrument): NormSampleAccount {
  const used = sample.filter((m) => m.flags.length === 0);
  const reasons: Record<string, number> = {};
  for (const m of sample) for (const flag of new Set(m.flags)) reasons[flag] = (reasons[flag] ?? 0) + 1;
  const account: NormSampleAccount = { considered: sample.length, excluded: { total: sample.length - used.length, reasons } };
  if (used.some((m) => m.gender !== undefined && m.gender !== null)) {
    account.gender = { unknown: 0, male: 0, female: 0, neutral: 0 };
    for (const m of used) account.gender[GENDER_KEYS[m.gender ?? 0] ?? 'unknown']++;
    account.genderDifferences = {};
    // Each scale's members in one pass over the sample: a norm group may have thousands.
    const byScale = new Map(
      instrument.scales.filter((s) => table.scales[s.id]).map((s) => [s.id, [] as Array<{ gender: number | null | undefined; raw: number; sten: number }>]),
    );
    for (const m of used) {
      for (const score of m.scales)
        byScale.get(score.scale)?.push({ gender: m.gender, raw: score.mean, sten: sten(score.mean, table.scales[score.scale]!, instrument.responseScale) });
    }
    for (const [id, members] of byScale) {
      const g = genderDifference(members);
      // A group below the minimum gives its count only: a mean of a handful could describe someone.
      const count = (c: typeof g.male) =>
        c.n >= MIN_SUBGROUP ? { n: c.n, mean: c.mean, high: c.high, low: c.low } : { n: c.n, mean: null, high: null, low: null };
      account.genderDifferences[id] = {
        male: count(g.male),
        female: count(g.female),
        d: g.d,
        dLower: g.dLower,
        dUpper: g.dUpper,
        fourFifths: g.fourFifths,
        fourFifthsLow: g.fourFifthsLow,
      };
    }
  }
  const ages = used.flatMap((m) => (typeof m.age === 'number' ? [m.age] : [])).sort((a, b) => a - b);
  if (ages.length > 0) {
    const mid = ages.length >> 1;
    const bands = Object.fromEntries(AGE_BANDS.map(([label]) => [label, 0]));
    for (const age of ages) bands[AGE_BANDS.findLast(([, from]) => age >= from)![0]]!++;
    account.age = {
      known: ages.length,
      unknown: used.length - ages.length,
      min: ages[0]!,
      max: ages[ages.length - 1]!,
      median: ages.length % 2 ? ages[mid]! : (ages[mid - 1]! + ages[mid]!) / 2,
      bands,
    };
  }
  return account;
}

/** The account with respondents left out before scoring, for answering in another language, added. */
export function withOtherLanguage(account: NormSampleAccount, otherLanguage: number): NormSampleAccount {
  if (otherLanguage === 0) return account;
  return {
    ...account,
    considered: account.considered + otherLanguage,
    excluded: { total: account.excluded.total + otherLanguage, reasons: { ...account.excluded.reasons, OtherLanguage: otherLanguage } },
  };
}

const count = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;
const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const numOrNull = (x: unknown) => x === null || num(x);
const obj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Every problem with a norm file's `sample` (format 2); [] when sound. */
export function sampleAccountProblems(x: unknown, scaleIds: readonly string[]): string[] {
  if (!obj(x)) return ['sample must be an object'];
  const p: string[] = [];
  if (!count(x.considered)) p.push('sample.considered must be a whole number');
  const ex = x.excluded;
  if (!obj(ex) || !count(ex.total) || !obj(ex.reasons) || !Object.values(ex.reasons).every(count))
    p.push('sample.excluded must hold a whole number total and whole-number reasons');
  if (x.gender !== undefined && !(obj(x.gender) && GENDER_KEYS.every((k) => count((x.gender as Record<string, unknown>)[k]))))
    p.push(`sample.gender must give a whole number for each of ${GENDER_KEYS.join(', ')}`);
  const age = x.age;
  if (
    age !== undefined &&
    !(
      obj(age) &&
      ['known', 'unknown'].every((k) => count(age[k])) &&
      ['min', 'max', 'median'].every((k) => num(age[k])) &&
      obj(age.bands) &&
      Object.values(age.bands).every(count)
    )
  ) {
    p.push('sample.age must give known, unknown, min, max, median and bands as numbers');
  }
  const diffs = x.genderDifferences;
  if (diffs !== undefined) {
    const countOrNull = (x: unknown) => x === null || count(x);
    // low, dLower, dUpper and fourFifthsLow came later: a file built before them lacks them.
    const later = (x: unknown) => x === undefined || numOrNull(x);
    const group = (g: unknown) => obj(g) && count(g.n) && numOrNull(g.mean) && countOrNull(g.high) && (g.low === undefined || countOrNull(g.low));
    if (!obj(diffs)) p.push('sample.genderDifferences must be an object by scale id');
    else
      for (const [id, d] of Object.entries(diffs)) {
        if (!scaleIds.includes(id)) p.push(`sample.genderDifferences: "${id}" is not a scale of the instrument`);
        else if (!(
          obj(d) &&
          group(d.male) &&
          group(d.female) &&
          numOrNull(d.d) &&
          numOrNull(d.fourFifths) &&
          [d.dLower, d.dUpper, d.fourFifthsLow].every(later)
        ))
          p.push(
            `sample.genderDifferences.${id} must give male and female (n, mean, high; low), d and fourFifths (dLower, dUpper, fourFifthsLow) as numbers or null`,
          );
      }
  }
  return p;
}
