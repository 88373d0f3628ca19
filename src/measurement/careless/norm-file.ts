import type { Instrument } from '../instruments/types.js';
import { CARELESS_INDICES, type CarelessNorm } from '../types.js';
import { cholesky } from './matrix.js';

const num = (x: unknown, lo = -Infinity, hi = Infinity): x is number => typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi;
const DIRECTION = { EvenOdd: 'low', Synonyms: 'low', LongString: 'high', Outlier: 'high' } as const;

/**
 * A norm file's careless entry: for an instrument without declared pairs, all four indices with
 * their side, a threshold and a share; synonym pairs of the instrument's items; the means and a
 * positive definite covariance (lower triangle) over every item, in the instrument's order.
 */
export function carelessProblems(value: unknown, instrument: Instrument): string[] {
  if (instrument.consistencyPairs?.length || instrument.consistencyAntonyms?.length)
    return [`careless: ${instrument.code} declares its own consistency pairs (LowConsistency)`];
  const c = value as Partial<CarelessNorm> | null;
  if (typeof c !== 'object' || c === null) return ['careless must be an object'];
  const problems: string[] = [];
  if (!num(c.target, 0, 1) || !num(c.flagged, 0, 1)) problems.push('careless.target and careless.flagged must be shares from 0 to 1');
  for (const ix of CARELESS_INDICES) {
    const i = c.indices?.[ix];
    if (!i || i.direction !== DIRECTION[ix] || !num(i.threshold) || !num(i.falsePositive, 0, 1))
      problems.push(`careless.indices.${ix} must give direction "${DIRECTION[ix]}", a threshold and a falsePositive share from 0 to 1`);
  }
  const ids = instrument.items.map((i) => i.id);
  const known = new Set(ids);
  const pairs = c.synonyms?.pairs;
  const pairsOk =
    num(c.synonyms?.cutoff, 0, 1) &&
    Array.isArray(pairs) &&
    pairs.length >= 2 &&
    pairs.every((p) => Array.isArray(p?.items) && p.items.length === 2 && p.items.every((id) => known.has(id)) && num(p.r, -1, 1));
  if (!pairsOk)
    problems.push(`careless.synonyms must give a cutoff from 0 to 1 and at least two pairs of ${instrument.code}'s items, each with r from -1 to 1`);
  const o = c.outlier;
  const p = ids.length;
  const shapeOk =
    Array.isArray(o?.items) &&
    o.items.length === p &&
    o.items.every((id, k) => id === ids[k]) &&
    Array.isArray(o.mean) &&
    o.mean.length === p &&
    o.mean.every((x) => num(x)) &&
    Array.isArray(o.covariance) &&
    o.covariance.length === p &&
    o.covariance.every((row, i) => Array.isArray(row) && row.length === i + 1 && row.every((x) => num(x)));
  if (!shapeOk) problems.push(`careless.outlier must give ${instrument.code}'s items in order, their means and the covariance's lower triangle`);
  else {
    try {
      cholesky(o.covariance);
    } catch {
      problems.push('careless.outlier.covariance must be positive definite');
    }
  }
  return problems;
}
