import { readFileSync } from 'node:fs';
import type { Instruments } from './instruments/load.js';
import { competenceProblems } from './competences.js';
import type { CompetenceModel } from './types.js';

export class ContentError extends Error {}

/** Reads a JSON content file, or says which file could not be read and why. */
export function readContent(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ContentError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Loads and validates the competence model against the instruments' scales; refuses to start on any problem. */
export function loadCompetences(file: string, instruments: Instruments): CompetenceModel {
  const data = readContent(file);
  // A competence can only use scales that every instrument it is for has.
  const named = (data as { instruments?: unknown })?.instruments;
  if (named !== undefined && (!Array.isArray(named) || named.some((code) => ![...instruments.values()].some((i) => i.code === code)))) {
    throw new ContentError(
      `${file} is not a valid competence model:\n  - instruments must list instrument codes (${[...instruments.values()].map((i) => i.code).join(', ')})`,
    );
  }
  const covered = [...instruments.values()].filter((i) => named === undefined || (named as string[]).includes(i.code));
  const [first, ...rest] = covered.map((i) => new Set(i.scales.map((s) => s.id)));
  const scaleIds = new Set([...(first ?? [])].filter((id) => rest.every((ids) => ids.has(id))));
  const problems = competenceProblems(data, scaleIds);
  if (problems.length > 0) {
    throw new ContentError(
      `${file} is not a valid competence model:\n${problems
        .slice(0, 10)
        .map((p) => `  - ${p}`)
        .join('\n')}`,
    );
  }
  return data as CompetenceModel;
}
