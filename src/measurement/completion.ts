import { isComplete } from './instruments/flow.js';
import { scoreAnswers } from './instruments/scoring.js';
import type { Instrument } from './instruments/types.js';
import { competenceScores, competencesFor } from './competences.js';
import { consistencyScore } from './consistency.js';
import { integrityFlags } from './integrity.js';
import type { CompetenceModel, CompletedResult } from './types.js';

/**
 * Everything completion stores, from every answer and the time per page; undefined while any item
 * is unanswered. `consistencyThreshold` is the pinned norm group's (NormTable.consistency), if any.
 */
export function scoreCompletion(
  instrument: Instrument,
  model: CompetenceModel,
  answers: ReadonlyMap<string, number>,
  pageMs: ReadonlyMap<number, number>,
  consistencyThreshold?: number,
): CompletedResult | undefined {
  if (!isComplete(instrument, answers)) return undefined;
  const scales = scoreAnswers(instrument, answers);
  const consistency = consistencyScore(instrument, answers);
  return {
    scales,
    competences: competenceScores({ ...model, competences: competencesFor(model, instrument) }, scales, instrument.responseScale),
    consistency,
    flags: integrityFlags({ instrument, answers, pageMs, consistency, consistencyThreshold }),
  };
}
