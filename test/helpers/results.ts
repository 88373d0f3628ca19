import { loadInstruments } from '../../src/measurement/instruments/load.js';
import type { Instrument } from '../../src/measurement/instruments/types.js';
import { BUILT_IN_CONTENT_DIR } from '../../src/platform/paths.js';
import type { Store } from '../../src/db/database.js';
import type { CompleteOptions } from './forms.js';

export const instruments = loadInstruments(BUILT_IN_CONTENT_DIR);

/**
 * Answers that follow a profile: each scale at its own level (1–5, from `seed`), negatively keyed
 * items answered the other way, as a careful candidate would. Returns the form answer function and
 * each scale's expected raw mean.
 */
export function profileAnswers(instrument: Instrument, seed: number): { answer: NonNullable<CompleteOptions['answer']>; level: Map<string, number> } {
  const level = new Map(instrument.scales.map((s, i) => [s.id, 1 + ((i * 3 + seed) % 5)]));
  const items = new Map(instrument.items.map((item) => [`a_${item.id}`, item]));
  return {
    level,
    answer: (name) => {
      const item = items.get(name)!;
      const value = level.get(item.scale)!;
      return String(item.keying === 'negative' ? 6 - value : value);
    },
  };
}

/**
 * Makes a candidate look unhurried: before each page post, the clock of their last activity is
 * set back a minute, as if they had read every statement. Only the timing is touched.
 */
export function takeTime(store: Store, analysisId: string): NonNullable<CompleteOptions['beforePost']> {
  return async () => {
    await store.write((trx) =>
      trx
        .updateTable('assessments')
        .set({ last_activity_at: new Date(Date.now() - 60_000).toISOString() })
        .where('analysis_id', '=', analysisId)
        .execute(),
    );
  };
}
