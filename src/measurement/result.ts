import { fairnessOf, type ScaleFairness } from './fairness.js';
import type { Instrument, Language, Localized, ResponseRange, ScaleScore } from './instruments/types.js';
import { stenBand } from './reliability.js';
import { percentile, reachableStens, sten } from './norms.js';
import type { Competence, CompetenceModel, CompetenceScore, IntegrityFlag, Norm, NormGroup } from './types.js';

/** A scale's code for callers: its id in capitals, e.g. FINANCIAL_REWARD. Stable as the id is. */
export function scaleCode(id: string): string {
  return id.toUpperCase().replace(/-/g, '_');
}

export interface Scored {
  /** Stable integer id (scale number or competence id) and code. */
  id: number;
  code: string;
  name: string;
  description: string;
  /** Mean on the instrument's response scale, two decimals. */
  raw: number;
  /** Against the norm group; undefined when the result is not norm-referenced. */
  sten: number | undefined;
  percentile: number | undefined;
  /**
   * The 90% band around the sten, from the norm group's reliability, within the stens the scale
   * can reach in that group: undefined when the group records none (precision unknown). Stens, one decimal.
   */
  stenBand?: { low: number; high: number };
}

/** Everything a completed assessment's result says, in one language: the results endpoint and the report both render it. */
export interface Result {
  scales: Scored[];
  competences: Scored[];
  consistency: number | undefined;
  flags: IntegrityFlag[];
  normGroup: NormGroup | null;
  /** Per scale, how it differs between women and men in the norm group; [] where the group records no gender. */
  fairness: ScaleFairness[];
  /** Taken in a translation the instrument marks: what every result taken in it must say (e.g. no norms of its own). */
  translationNote?: Localized;
  /** Taken in that translation and compared with a norm group of another (or an unrecorded) language. */
  translatedNorms?: { takenIn: Language; groupLanguage: string | null };
}

export interface StoredResult {
  scales: readonly ScaleScore[];
  competences: readonly CompetenceScore[];
  consistency: number | null;
  flags: readonly IntegrityFlag[];
}

const tenth = (x: number) => Math.round(x * 10) / 10;

function scored(id: number, code: string, name: string, description: string, raw: number, norm: Norm | undefined, range: ResponseRange): Scored {
  const s: Scored = { id, code, name, description, raw, sten: norm && sten(raw, norm, range), percentile: norm && percentile(raw, norm, range) };
  if (s.sten !== undefined && norm?.reliability) {
    const band = stenBand(s.sten, norm.reliability.alpha);
    const reach = reachableStens(norm, range);
    s.stenBand = { low: tenth(Math.max(band.low, reach.low)), high: tenth(Math.min(band.high, reach.high)) };
  }
  return s;
}

/** Turns what completion stored, and the norm group it pinned, into the result. Pure and cheap. */
export function buildResult(
  instrument: Instrument,
  model: CompetenceModel,
  stored: StoredResult,
  normGroup: NormGroup | null,
  lang: Language,
  takenIn: Language | null = null,
): Result {
  const raw = new Map(stored.scales.map((s) => [s.scale, s.mean]));
  const scales = instrument.scales.flatMap((s) => {
    const mean = raw.get(s.id);
    return mean === undefined
      ? []
      : [scored(s.number, scaleCode(s.id), s.name[lang], s.description[lang], mean, normGroup?.table.scales[s.id], instrument.responseScale)];
  });
  const byCode = new Map<string, Competence>(model.competences.map((c) => [c.code, c]));
  const competences = stored.competences.flatMap((c) => {
    const def = byCode.get(c.competence);
    return def
      ? [scored(def.id, def.code, def.name[lang], def.description[lang], c.raw, normGroup?.table.competences[def.code], instrument.responseScale)]
      : [];
  });
  const translation = takenIn ? instrument.languages?.translations?.[takenIn] : undefined;
  const translationNote = translation?.note;
  const translatedNorms = translation && normGroup && normGroup.language !== takenIn ? { takenIn: takenIn!, groupLanguage: normGroup.language } : undefined;
  return {
    scales,
    competences,
    consistency: stored.consistency ?? undefined,
    flags: [...stored.flags],
    normGroup,
    fairness: fairnessOf(normGroup, instrument),
    ...(translationNote ? { translationNote } : {}),
    ...(translatedNorms ? { translatedNorms } : {}),
  };
}
