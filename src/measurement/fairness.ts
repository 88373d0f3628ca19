import type { Instrument } from './instruments/types.js';
import { FOUR_FIFTHS } from './subgroups.js';
import type { NormGroup } from './types.js';

/**
 * One scale's adverse-impact figures in a norm group, for the employer (results, catalogue,
 * report): d (female minus male) with its 95% interval, the four-fifths ratios at sten 7 or more
 * and at 4 or less. Null where the group has no figure: too few of a gender, or a group built
 * before Assay recorded the interval and the low ratio.
 */
export interface ScaleFairness {
  scale: string;
  /** The scale number of the result lists. */
  id: number;
  d: number | null;
  dLower: number | null;
  dUpper: number | null;
  ratioHigh: number | null;
  ratioLow: number | null;
  /** Either ratio below 0.80: a cut on this scale screens out one gender more than the other in the group. */
  adverse: boolean;
}

const orNull = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/** Per scale of the instrument, in its order, the group's figures; [] without a group or without its gender differences. */
export function fairnessOf(group: NormGroup | null | undefined, instrument: Instrument): ScaleFairness[] {
  const diffs = group?.sample?.genderDifferences;
  if (!diffs) return [];
  return instrument.scales.flatMap((s) => {
    const g = diffs[s.id];
    if (!g) return [];
    const ratioHigh = orNull(g.fourFifths);
    const ratioLow = orNull(g.fourFifthsLow);
    return [
      {
        scale: s.id,
        id: s.number,
        d: orNull(g.d),
        dLower: orNull(g.dLower),
        dUpper: orNull(g.dUpper),
        ratioHigh,
        ratioLow,
        adverse: [ratioHigh, ratioLow].some((r) => r !== null && r < FOUR_FIFTHS),
      },
    ];
  });
}

/** Whether any scale has a figure to show: a group of one gender (or too few of either) has none. */
export const hasFairness = (rows: readonly ScaleFairness[]): boolean => rows.some((r) => [r.d, r.ratioHigh, r.ratioLow].some((x) => x !== null));

const fixed3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/** A scale's figures as the API shows them (results' Fairness item, catalogue's scales): three decimals. */
export function fairnessView(f: ScaleFairness): {
  D: number | null;
  DLow: number | null;
  DHigh: number | null;
  RatioHigh: number | null;
  RatioLow: number | null;
} {
  return { D: fixed3(f.d), DLow: fixed3(f.dLower), DHigh: fixed3(f.dUpper), RatioHigh: fixed3(f.ratioHigh), RatioLow: fixed3(f.ratioLow) };
}
