import type { Instrument } from '../instruments/types.js';
import { AGE_BANDS } from '../norm-sample.js';
import { CARELESS_INDICES, type CarelessIndex, type CarelessNorm } from '../types.js';
import { beyond, carelessModel, carelessValues, type CarelessValues } from './indices.js';
import { meanAndCovariance } from './matrix.js';

/** At most this share of the norm sample may be flagged by the indices together. */
export const CARELESS_TARGET = 0.01;
/** Item pairs whose answers correlate at |r| of at least this in the sample are synonyms (or antonyms, r < 0). */
export const SYNONYM_CUTOFF = 0.5;
/** The covariance of n answer sets over p items needs n well above p: below this many per item, no careless norm. */
export const MIN_PER_ITEM = 5;

const DIRECTION: Record<CarelessIndex, 'low' | 'high'> = { EvenOdd: 'low', Synonyms: 'low', LongString: 'high', Outlier: 'high' };
const GENDERS = ['unknown', 'male', 'female', 'neutral'] as const;

export interface CarelessMember {
  answers: ReadonlyMap<string, number>;
  gender?: number | null;
  age?: number | null;
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

/**
 * The careless norm of a sample: only for an instrument that declares no consistency pairs of its
 * own (those keep LowConsistency), with every answer of at least MIN_PER_ITEM members per item and
 * a positive definite covariance.
 * The sample's synonym pairs, item means and covariance (6 decimals, as stored) give each member's
 * four indices; each index's threshold is the value with k members beyond it on its careless side
 * (4 decimals), the same k for all, the largest k at which all together flag at most
 * CARELESS_TARGET of the sample.
 */
export function carelessNorm(instrument: Instrument, members: readonly CarelessMember[]): CarelessNorm | undefined {
  if (instrument.consistencyPairs?.length || instrument.consistencyAntonyms?.length) return undefined;
  const ids = instrument.items.map((i) => i.id);
  if (members.length < MIN_PER_ITEM * ids.length || !members.every((m) => ids.every((id) => m.answers.has(id)))) return undefined;
  const rows = members.map((m) => ids.map((id) => m.answers.get(id)!));
  const { mean, covariance } = meanAndCovariance(rows);
  const pairs = synonymPairs(ids, covariance);
  const outlier = { items: ids, mean: mean.map((x) => round(x, 6)), covariance: covariance.map((row) => row.map((x) => round(x, 6))) };
  const synonyms = { cutoff: SYNONYM_CUTOFF, pairs };
  let model: ReturnType<typeof carelessModel>;
  try {
    model = carelessModel({ synonyms, outlier });
  } catch {
    return undefined; // an item without spread, or items that add up to another: no distance exists
  }
  const values = members.map((m) => carelessValues(instrument, model, m.answers));
  const sorted = Object.fromEntries(
    CARELESS_INDICES.map((ix) => [ix, values.map((v) => v[ix]).sort((a, b) => (DIRECTION[ix] === 'low' ? a - b : b - a))]),
  ) as Record<CarelessIndex, number[]>;
  const allowed = Math.floor(CARELESS_TARGET * members.length);
  for (let k = allowed; k >= 0; k--) {
    const indices = Object.fromEntries(
      CARELESS_INDICES.map((ix) => [ix, { direction: DIRECTION[ix], threshold: round(sorted[ix][k]!, 4), falsePositive: 0 }]),
    ) as CarelessNorm['indices'];
    const flagged = values.map((v) => CARELESS_INDICES.filter((ix) => beyond(v[ix], indices[ix])));
    if (flagged.filter((f) => f.length > 0).length > allowed) continue;
    for (const ix of CARELESS_INDICES) indices[ix].falsePositive = round(flagged.filter((f) => f.includes(ix)).length / members.length, 4);
    const any = flagged.map((f) => f.length > 0);
    return {
      target: CARELESS_TARGET,
      flagged: round(any.filter(Boolean).length / members.length, 4),
      indices,
      synonyms,
      outlier,
      ...rates(members, any),
    };
  }
  return undefined;
}

/** Every item pair, in item order, whose answers correlate at |r| ≥ SYNONYM_CUTOFF, with r to 4 decimals: from the covariance. */
function synonymPairs(ids: readonly string[], covariance: readonly (readonly number[])[]): CarelessNorm['synonyms']['pairs'] {
  const pairs: CarelessNorm['synonyms']['pairs'] = [];
  for (let a = 0; a < ids.length; a++)
    for (let b = a + 1; b < ids.length; b++) {
      const r = covariance[b]![a]! / Math.sqrt(covariance[a]![a]! * covariance[b]![b]!);
      if (Math.abs(r) >= SYNONYM_CUTOFF) pairs.push({ items: [ids[a]!, ids[b]!], r: round(r, 4) });
    }
  return pairs;
}

/** How many of each gender and age band the norm flags, where the sample records them. */
function rates(members: readonly CarelessMember[], flagged: readonly boolean[]): Pick<CarelessNorm, 'rates'> {
  const count = (key: (m: CarelessMember) => string | undefined) => {
    const out: Record<string, { n: number; flagged: number }> = {};
    members.forEach((m, i) => {
      const k = key(m);
      if (k === undefined) return;
      out[k] ??= { n: 0, flagged: 0 };
      out[k].n++;
      if (flagged[i]) out[k].flagged++;
    });
    return Object.keys(out).length ? out : undefined;
  };
  const gender = count((m) => (m.gender === undefined ? undefined : (GENDERS[m.gender ?? 0] ?? 'unknown')));
  const age = count((m) => (typeof m.age === 'number' ? AGE_BANDS.findLast(([, from]) => m.age! >= from)![0] : undefined));
  return gender || age ? { rates: { ...(gender ? { gender } : {}), ...(age ? { age } : {}) } } : {};
}

export type { CarelessValues };
