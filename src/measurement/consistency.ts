import type { Instrument } from './instruments/types.js';

/**
 * How consistently the questionnaire was answered, 0–100: the within-person correlation over the
 * instrument's pairs of the two answers, times 100, rounded, and 0 when it is negative. Synonym
 * pairs (consistencyPairs: two items of one scale asking nearly the same thing, keyed opposite
 * ways) compare the keyed answers: the psychometric-synonyms index (Meade & Craig, 2012). Antonym
 * pairs (consistencyAntonyms: items whose answers run opposite ways in a norm sample) compare the
 * first item's answer with the second's turned round: the psychometric-antonyms index, the same
 * way up. A careful respondent's pairs rise and fall together, so it is high; random answers
 * average about 0. Answers without variation across the pairs (the midpoint everywhere, or
 * agreeing with everything) show no consistency at all and score 0: they cannot score high.
 * Undefined when the instrument has no pairs or a pair is unanswered.
 */
export function consistencyScore(instrument: Instrument, answers: ReadonlyMap<string, number>): number | undefined {
  const pairs = pairedAnswers(instrument, answers);
  if (!pairs) return undefined;
  const r = correlation(
    pairs.map(([x]) => x),
    pairs.map(([, y]) => y),
  );
  return r === undefined ? 0 : Math.max(0, Math.round(r * 100));
}

/** Each pair's two answers as the score compares them; undefined without pairs or with one unanswered. */
function pairedAnswers(instrument: Instrument, answers: ReadonlyMap<string, number>): Array<[number, number]> | undefined {
  const antonyms = instrument.consistencyAntonyms;
  const pairs = antonyms ?? instrument.consistencyPairs;
  if (!pairs?.length) return undefined;
  const { min, max } = instrument.responseScale;
  const keyed = new Map(instrument.items.map((item) => [item.id, item.keying]));
  const value = (id: string, turned: boolean) => {
    const response = answers.get(id);
    if (response === undefined) return undefined;
    return turned ? min + max - response : response;
  };
  const out: Array<[number, number]> = [];
  for (const [a, b] of pairs) {
    const x = value(a, !antonyms && keyed.get(a) === 'negative');
    const y = value(b, antonyms ? true : keyed.get(b) === 'negative');
    if (x === undefined || y === undefined) return undefined;
    out.push([x, y]);
  }
  return out;
}

/** Pearson's r; undefined when either side does not vary. */
export function correlation(xs: readonly number[], ys: readonly number[]): number | undefined {
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
