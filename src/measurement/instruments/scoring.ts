import { itemKeys, type Instrument, type ScaleScore } from './types.js';

/**
 * Per scale: the sum and mean of the responses to the items that count for it, an item keyed
 * negatively there reversed (min + max - response). An item may count for several scales, each
 * with its own keying. Throws when an item is unanswered: scoring is for complete sets.
 */
export function scoreAnswers(instrument: Instrument, answers: ReadonlyMap<string, number>): ScaleScore[] {
  const { min, max } = instrument.responseScale;
  const totals = new Map<string, { raw: number; items: number }>(instrument.scales.map((s) => [s.id, { raw: 0, items: 0 }]));
  for (const item of instrument.items) {
    const response = answers.get(item.id);
    if (response === undefined) throw new Error(`Item ${item.id} is unanswered`);
    for (const { scale, keying } of itemKeys(item)) {
      const total = totals.get(scale)!;
      total.raw += keying === 'negative' ? min + max - response : response;
      total.items += 1;
    }
  }
  return instrument.scales.map((s) => {
    const { raw, items } = totals.get(s.id)!;
    return { scale: s.id, raw, mean: Math.round((raw / items) * 100) / 100, items };
  });
}
