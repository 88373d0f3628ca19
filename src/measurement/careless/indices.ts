import type { Instrument } from '../instruments/types.js';
import { correlation } from '../consistency.js';
import type { CarelessIndex, CarelessNorm } from '../types.js';
import { cholesky, squaredDistance } from './matrix.js';

/**
 * The four careless-responding indices of one complete answer set (docs/PSYCHOMETRICS.md):
 * - EvenOdd: per narrow scale (each item's own scale, keyed answers, scales of two items or more)
 *   the mean of its odd-placed and of its even-placed items; the within-person r of the odd means
 *   with the even means across scales, Spearman-Brown corrected (2r / (1 + r), at least −1), as
 *   careless::evenodd. High is careful.
 * - Synonyms: the within-person r across the sample's synonym pairs of the first item's answer
 *   with the second's, turned round for an antonym pair (careless::psychsyn and psychant in one).
 *   High is careful.
 * - LongString: the longest run of one answer in the order the items are asked. High is careless.
 * - Outlier: the squared Mahalanobis distance of the answers from the sample's mean, through its
 *   covariance (careless::mahad). High is careless.
 * An r that does not exist (no spread) counts as 0: no sign of consistency.
 */
export type CarelessValues = Record<CarelessIndex, number>;

/** What computing the indices needs of a norm: the pairs, and the covariance already factored. */
export interface CarelessModel {
  pairs: CarelessNorm['synonyms']['pairs'];
  items: readonly string[];
  mean: readonly number[];
  factor: readonly Float64Array[];
}

const models = new WeakMap<CarelessNorm, CarelessModel>();

/** The norm's model, factored once per norm object. */
export function carelessModel(norm: Pick<CarelessNorm, 'synonyms' | 'outlier'>): CarelessModel {
  const cached = models.get(norm as CarelessNorm);
  if (cached) return cached;
  const model = { pairs: norm.synonyms.pairs, items: norm.outlier.items, mean: norm.outlier.mean, factor: cholesky(norm.outlier.covariance) };
  models.set(norm as CarelessNorm, model);
  return model;
}

export function carelessValues(instrument: Instrument, model: CarelessModel, answers: ReadonlyMap<string, number>): CarelessValues {
  return {
    EvenOdd: evenOdd(instrument, answers),
    Synonyms: synonyms(instrument, model.pairs, answers),
    LongString: longString(instrument, answers),
    Outlier: squaredDistance(
      model.factor,
      model.mean,
      model.items.map((id) => answers.get(id)!),
    ),
  };
}

export function evenOdd(instrument: Instrument, answers: ReadonlyMap<string, number>): number {
  const { min, max } = instrument.responseScale;
  const odd: number[] = [];
  const even: number[] = [];
  for (const scale of instrument.scales) {
    const keyed = instrument.items
      .filter((i) => i.scale === scale.id)
      .map((i) => (i.keying === 'negative' ? min + max - answers.get(i.id)! : answers.get(i.id)!));
    if (keyed.length < 2) continue;
    const half = (rest: number) => {
      const v = keyed.filter((_, k) => k % 2 === rest);
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    odd.push(half(0));
    even.push(half(1));
  }
  const r = correlation(odd, even);
  return r === undefined ? 0 : Math.max(-1, (2 * r) / (1 + r));
}

export function synonyms(instrument: Instrument, pairs: CarelessModel['pairs'], answers: ReadonlyMap<string, number>): number {
  const { min, max } = instrument.responseScale;
  const r = correlation(
    pairs.map((p) => answers.get(p.items[0])!),
    pairs.map((p) => (p.r < 0 ? min + max - answers.get(p.items[1])! : answers.get(p.items[1])!)),
  );
  return r ?? 0;
}

export function longString(instrument: Instrument, answers: ReadonlyMap<string, number>): number {
  let longest = 0;
  let run = 0;
  let last: number | undefined;
  for (const item of instrument.items) {
    const a = answers.get(item.id);
    run = a === last ? run + 1 : 1;
    last = a;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Whether a value lies beyond its index's threshold, on the careless side. */
export const beyond = (value: number, index: { direction: 'low' | 'high'; threshold: number }): boolean =>
  index.direction === 'low' ? value < index.threshold : value > index.threshold;
