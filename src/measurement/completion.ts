import { isComplete } from './instruments/flow.js';
import { scoreAnswers } from './instruments/scoring.js';
import type { Instrument } from './instruments/types.js';
import { competenceScores, competencesFor } from './competences.js';
import { consistencyScore } from './consistency.js';
import { integrityFlags } from './integrity.js';
import { carelessModel, synonyms } from './careless/indices.js';
import type { CompetenceModel, CompletedResult, NormTable } from './types.js';

/**
 * Everything completion stores, from every answer and the time per page; undefined while any item
 * is unanswered. `norm` is the pinned norm group's integrity evidence, if any: its LowConsistency
 * threshold and its careless indices. An instrument without declared pairs takes its consistency
 * score from the group's synonym pairs (the Synonyms index × 100, 0 when negative).
 */
export function scoreCompletion(
  instrument: Instrument,
  model: CompetenceModel,
  answers: ReadonlyMap<string, number>,
  pageMs: ReadonlyMap<number, number>,
  norm?: Pick<NormTable, 'consistency' | 'careless'>,
): CompletedResult | undefined {
  if (!isComplete(instrument, answers)) return undefined;
  const scales = scoreAnswers(instrument, answers);
  const careless = norm?.careless;
  const fromPairs = careless && Math.max(0, Math.round(100 * synonyms(instrument, carelessModel(careless).pairs, answers)));
  const consistency = consistencyScore(instrument, answers) ?? fromPairs;
  return {
    scales,
    competences: competenceScores({ ...model, competences: competencesFor(model, instrument) }, scales, instrument.responseScale),
    consistency,
    flags: integrityFlags({ instrument, answers, pageMs, consistency, consistencyThreshold: norm?.consistency?.threshold, careless }),
  };
}
