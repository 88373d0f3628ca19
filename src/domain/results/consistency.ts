import type { Instrument } from '../instruments/types.js';

/**
 * How consistently the questionnaire was answered, 0–100: over the instrument's designated
 * item pairs (two items of one scale that ask nearly the same thing, most of them keyed
 * opposite ways), the mean agreement 1 − |a − b| / (max − min) of the two keyed responses,
 * times 100, rounded. Careful answering scores high; answering at random averages 60 on a
 * 5-point scale; agreeing with everything scores low on opposite-keyed pairs.
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
  let agreement = 0;
  for (const [a, b] of pairs) {
    const x = value(a);
    const y = value(b);
    if (x === undefined || y === undefined) return undefined;
    agreement += 1 - Math.abs(x - y) / (max - min);
  }
  return Math.round((agreement / pairs.length) * 100);
}
