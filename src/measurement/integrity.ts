import { pageCount, pageItems } from './instruments/flow.js';
import type { Instrument } from './instruments/types.js';
import { beyond, carelessModel, carelessValues } from './careless/indices.js';
import { CARELESS_INDICES, type CarelessNorm, type IntegrityFlag } from './types.js';

/** The thresholds, with their sources in docs/PSYCHOMETRICS.md. */
export const INTEGRITY = {
  /** Share of questionnaire pages on which every statement got the same answer, whichever answer (the midpoint too). */
  straightLiningPages: 0.5,
  /** Median seconds per statement across pages: under 2 s reads no statement (Huang et al., 2012). */
  speedingSecondsPerItem: 2,
  /**
   * ConsistencyScore (within-person r × 100) below this, for synonym pairs: random answering averages 0,
   * with an SD of about 20 over 26 pairs. Antonym pairs take their threshold from the norm group.
   */
  lowConsistency: 30,
} as const;

export interface IntegrityInput {
  instrument: Instrument;
  answers: ReadonlyMap<string, number>;
  /** Milliseconds spent on each questionnaire page (1-based), as far as recorded. */
  pageMs: ReadonlyMap<number, number>;
  consistency: number | undefined;
  /** The norm group's threshold (ConsistencyNorm.threshold): flagged at or below it. Without it, the fixed rule for synonym pairs. */
  consistencyThreshold?: number | undefined;
  /** The norm group's careless indices (NormTable.careless), for an instrument without declared pairs. */
  careless?: CarelessNorm | undefined;
}

/**
 * Signs that the answers may not describe the candidate:
 * - StraightLining: on at least half of the pages every statement got the same answer;
 * - Speeding: the median time per statement across the pages is under two seconds;
 * - LowConsistency: the consistency score is at or below the norm group's threshold where the group
 *   has one (an instrument with antonym pairs), else under 30 for synonym pairs; antonym pairs
 *   without a group threshold give no flag, since 30 was set for synonym pairs;
 * - EvenOdd, Synonyms, LongString, Outlier: the careless index of that name lies beyond the
 *   threshold the norm group calibrated (careless/calibrate.ts), where the group has them.
 * A flag asks for a conversation with the candidate; it is not a verdict.
 */
export function integrityFlags({ instrument, answers, pageMs, consistency, consistencyThreshold, careless }: IntegrityInput): IntegrityFlag[] {
  const flags: IntegrityFlag[] = [];
  const pages = pageCount(instrument);
  let uniform = 0;
  const secondsPerItem: number[] = [];
  for (let page = 1; page <= pages; page++) {
    const items = pageItems(instrument, page);
    const values = new Set(items.map((item) => answers.get(item.id)));
    if (items.length > 1 && values.size === 1 && !values.has(undefined)) uniform++;
    const ms = pageMs.get(page);
    if (ms !== undefined) secondsPerItem.push(ms / 1000 / items.length);
  }
  if (uniform / pages >= INTEGRITY.straightLiningPages) flags.push('StraightLining');
  if (secondsPerItem.length > 0 && median(secondsPerItem) < INTEGRITY.speedingSecondsPerItem) flags.push('Speeding');
  if (consistency !== undefined && lowConsistency(instrument, consistency, consistencyThreshold)) flags.push('LowConsistency');
  if (careless) {
    const values = carelessValues(instrument, carelessModel(careless), answers);
    flags.push(...CARELESS_INDICES.filter((ix) => beyond(values[ix], careless.indices[ix])));
  }
  return flags;
}

function lowConsistency(instrument: Instrument, consistency: number, threshold: number | undefined): boolean {
  if (instrument.consistencyAntonyms?.length) return threshold !== undefined && consistency <= threshold;
  // Without declared pairs the score comes from the group's synonym pairs: the Synonyms flag judges it.
  return !!instrument.consistencyPairs?.length && consistency < INTEGRITY.lowConsistency;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
