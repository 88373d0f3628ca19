import type { Instrument } from './instruments/types.js';

/**
 * How consistently the questionnaire was answered, 0–100: the within-person correlation over the
 * instrument's designated item pairs (two items of one scale that ask nearly the same thing, keyed
 * opposite ways), of the two keyed responses, times 100, rounded, and 0 when it is negative. This is
 * the psychometric-synonyms index (Meade & Craig, 2012). A careful respondent's keyed pairs rise and
 * fall together across scales, so it is high; random answers average about 0. Answers without
 * variation across the pairs (the midpoint everywhere, or agreeing with everything) show no
 * consistency at all and score 0: they cannot score high.
 * Undefined when the instrument designates no pairs or a pair is unanswered.
 */
export function consistencyScore(instrument: Instrument, answers: ReadonlyMap<string, number>): number | undefined {
  const pairs = instrument.consistencyPairs;
  if (!pairs?.length) return undefined;
  const { min, max } = instrument.responseScale;
  const keyed = new Map(instrument.items.map((item) => [item.id, item.keying]));
  const value = (id: string) => {
    const response = answers.get(id);
    if (response === undefined) return undefined;
    return keyed.get(id) === 'negative' ? min + max - response : response;
  };
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [a, b] of pairs) {
    const x = value(a);
    const y = value(b);
    if (x === undefined || y === undefined) return undefined;
    xs.push(x);
    ys.push(y);
  }
  const r = correlation(xs, ys);
  return r === undefined ? 0 : Math.max(0, Math.round(r * 100));
}

/** Pearson's r; undefined when either side does not vary. */
function correlation(xs: readonly number[], ys: readonly number[]): number | undefined {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : undefined;
}
