import type { Instrument, ScaleScore } from './types.js';

/**
 * Per scale: the sum and mean of the item responses, negatively keyed items reversed
 * (min + max - response). Throws when an item is unanswered: scoring is for complete sets.
 */
export function scoreAnswers(instrument: Instrument, answers: ReadonlyMap<string, number>): ScaleScore[] {
  const { min, max } = instrument.responseScale;
  const totals = new Map<string, { raw: number; items: number }>(instrument.scales.map((s) => [s.id, { raw: 0, items: 0 }]));
  for (const item of instrument.items) {
    const response = answers.get(item.id);
    if (response === undefined) throw new Error(`Item ${item.id} is unanswered`);
    const keyed = item.keying === 'negative' ? min + max - response : response;
    const total = totals.get(item.scale)!;
    total.raw += keyed;
    total.items += 1;
  }
  return instrument.scales.map((s) => {
    const { raw, items } = totals.get(s.id)!;
    return { scale: s.id, raw, mean: Math.round((raw / items) * 100) / 100, items };
  });
}
