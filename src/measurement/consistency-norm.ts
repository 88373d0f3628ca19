import type { Instrument } from './instruments/types.js';
import { consistencyScore, correlation } from './consistency.js';
import type { ConsistencyNorm } from './types.js';

/** The share of a norm sample at or below whose consistency score the group's threshold sits. */
export const LOW_CONSISTENCY_PERCENTILE = 1;

/**
 * A norm sample's consistency evidence for an instrument with antonym pairs: each pair's Pearson r
 * across the sample (4 decimals), and the threshold: the sample's own 1st percentile of the
 * consistency score, the lowest score at or below which at least 1% of the sample lie (the order
 * statistic ⌈n/100⌉, R's quantile type 1). A result is flagged at or below it. Undefined for an
 * instrument without antonym pairs (its fixed rule stays) or a sample without every answer.
 */
export function consistencyNorm(instrument: Instrument, sample: ReadonlyArray<ReadonlyMap<string, number>>): ConsistencyNorm | undefined {
  const pairs = instrument.consistencyAntonyms;
  if (!pairs?.length || sample.length === 0) return undefined;
  const scores: number[] = [];
  for (const answers of sample) {
    const score = consistencyScore(instrument, answers);
    if (score === undefined) return undefined;
    scores.push(score);
  }
  scores.sort((a, b) => a - b);
  const at = Math.ceil((sample.length * LOW_CONSISTENCY_PERCENTILE) / 100);
  const round = (r: number | undefined) => Math.round((r ?? 0) * 10_000) / 10_000;
  return {
    pairs: pairs.map(([a, b]) => ({
      items: [a, b],
      r: round(
        correlation(
          sample.map((m) => m.get(a)!),
          sample.map((m) => m.get(b)!),
        ),
      ),
    })),
    percentile: LOW_CONSISTENCY_PERCENTILE,
    threshold: scores[at - 1]!,
  };
}
