import type { Instrument, ScaleScore } from './instruments/types.js';
import { LANGUAGES } from '../domain/language.js';
import { textProblem, textProblemsWithin } from '../domain/text.js';
import { carelessNorm } from './careless/calibrate.js';
import { carelessProblems } from './careless/norm-file.js';
import { competencesFor } from './competences.js';
import { consistencyNorm } from './consistency-norm.js';
import { normEvidence } from './norm-evidence.js';
import { describeSample, sampleAccountProblems } from './norm-sample.js';
import { buildNorm, normTableProblems } from './norms.js';
import type { CompetenceModel, CompetenceScore, IntegrityFlag, NormDescription, NormGroup, NormSampleAccount, NormTable } from './types.js';

/** A completed assessment as a norm sample sees it: scores only, nothing that identifies anyone. */
export interface SampleMember {
  scales: readonly ScaleScore[];
  competences: readonly CompetenceScore[];
  flags: readonly IntegrityFlag[];
  /** Every item's answer, for the reliability evidence; absent when the answers are gone. */
  answers?: ReadonlyMap<string, number>;
  /** The instrument's content version it was taken in; null when not recorded. */
  contentVersion?: string | null;
  /** The API's Gender code and the age in years, where the sample records them (the make-up and subgroup differences). */
  gender?: number | null;
  age?: number | null;
}

export const DEFAULT_MIN_SAMPLE = 200;
/** Below 30 a mean and SD say too little about anyone else: no operator setting goes lower. */
export const MIN_SAMPLE_FLOOR = 30;

/**
 * A norm table from completed assessments. Members with any integrity flag are left out: their
 * answers may not describe them. Throws with the counts when too few remain.
 */
export function buildNormTable(
  sample: readonly SampleMember[],
  instrument: Instrument,
  model: CompetenceModel,
  minSample: number,
): { table: NormTable; used: number; excluded: number; sample: NormSampleAccount } {
  const used = sample.filter((m) => m.flags.length === 0);
  if (used.length < Math.max(minSample, MIN_SAMPLE_FLOOR)) {
    throw new NormError(
      `${used.length} usable completed assessments (${sample.length - used.length} more had integrity flags); at least ${Math.max(minSample, MIN_SAMPLE_FLOOR)} are needed`,
    );
  }
  const values = <T>(pick: (m: SampleMember) => readonly T[], key: (x: T) => string, value: (x: T) => number, id: string) =>
    used.flatMap((m) =>
      pick(m)
        .filter((x) => key(x) === id)
        .map(value),
    );
  const table: NormTable = { scales: {}, competences: {} };
  for (const s of instrument.scales)
    table.scales[s.id] = buildNorm(
      values(
        (m) => m.scales,
        (x) => x.scale,
        (x) => x.mean,
        s.id,
      ),
    );
  for (const c of model.competences) {
    const v = values(
      (m) => m.competences,
      (x) => x.competence,
      (x) => x.raw,
      c.code,
    );
    if (v.length >= minSample) table.competences[c.code] = buildNorm(v);
  }
  // Reliability needs every member's answers to every item: from a sample that has them all.
  if (used.every((m) => m.answers && instrument.items.every((i) => m.answers!.has(i.id)))) {
    const evidence = normEvidence(
      instrument,
      model,
      used.map((m) => m.answers!),
    );
    for (const [id, r] of Object.entries(evidence.scales)) if (table.scales[id]) table.scales[id].reliability = r;
    for (const [code, r] of Object.entries(evidence.competences)) if (table.competences[code]) table.competences[code].reliability = r;
    const consistency = consistencyNorm(
      instrument,
      used.map((m) => m.answers!),
    );
    if (consistency) table.consistency = consistency;
    const careless = carelessNorm(instrument, used as Array<SampleMember & { answers: ReadonlyMap<string, number> }>);
    if (careless) table.careless = careless;
  }
  return { table, used: used.length, excluded: sample.length - used.length, sample: describeSample(sample, table, instrument) };
}

export class NormError extends Error {}

export const NORM_LIMITS = { name: 200, source: 2000, description: 300 } as const;

/** A norm group's name and source are printed by `norms list` and shown in reports: no control characters. */
export function textProblems(fields: Record<string, string>): string[] {
  return Object.entries(fields).flatMap(([field, value]) => textProblem(field, value) ?? []);
}

/**
 * A group's description: by language, a sentence or two a recruiter reads under the group's name
 * in the report. `nameOf` names a language's text in the messages (a file's field, or a CLI option).
 */
export function descriptionProblems(value: unknown, nameOf = (lang: string) => `description.${lang}`): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['description must be an object of texts by language ("en", "nl")'];
  const entries = Object.entries(value);
  if (entries.length === 0) return ['description must give a text for at least one language ("en", "nl")'];
  // An unknown key is not echoed: it could carry the very characters refused in the texts.
  if (entries.some(([lang]) => !(LANGUAGES as readonly string[]).includes(lang))) return ['description may only have the languages "en" and "nl"'];
  return entries.flatMap(([lang, text]): string[] => {
    const at = nameOf(lang);
    if (typeof text !== 'string' || !text.trim()) return [`${at} must be a text`];
    if (text.length > NORM_LIMITS.description) return [`${at} must be at most ${NORM_LIMITS.description} characters (it has ${text.length})`];
    return textProblems({ [at]: text });
  });
}

/** A valid description as stored: each text trimmed. */
export const trimmedDescription = (d: NormDescription): NormDescription => Object.fromEntries(Object.entries(d).map(([lang, text]) => [lang, text.trim()]));

/** The norm file format (docs/RESULTS.md "Norm groups"); what `norms import` reads and the example ships as. */
export interface NormFile {
  /** Version 2 may carry each norm's reliability; version 1 has none (precision unknown). */
  format: 'assay-norms/1' | 'assay-norms/2';
  name: string;
  instrument: Instrument['code'];
  source: string;
  /** Any version: who the sample is in plain words, by language, for the report. */
  description?: NormDescription;
  sampleSize: number;
  collectedFrom?: string | null;
  collectedTo?: string | null;
  illustrative?: boolean;
  /** Version 2: the sample's content version and language, where known. */
  contentVersion?: string | null;
  language?: string | null;
  /** Version 2: the sample's make-up, exclusions and gender differences, where recorded. */
  sample?: NormSampleAccount;
  scales: NormTable['scales'];
  competences?: NormTable['competences'];
  /** Version 2, for an instrument with antonym pairs: the pairs' r and the LowConsistency threshold. */
  consistency?: NormTable['consistency'];
  /** Version 2, for an instrument without declared pairs: the careless indices as the sample calibrated them. */
  careless?: NormTable['careless'];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads a norm file for one of the instruments; every problem is listed in the error. */
export function parseNormFile(data: unknown, instruments: ReadonlyMap<number, Instrument>, model: CompetenceModel): Omit<NormGroup, 'id'> {
  if (typeof data !== 'object' || data === null) throw new NormError('the file does not hold a JSON object');
  // Every string and key is printed somewhere (norms show, reports), so all get name's and source's
  // check. Alone when they fail: the other messages quote keys.
  const text = Object.entries(data).flatMap(([key, value]) => textProblem('a key of the file', key) ?? textProblemsWithin(value, key));
  if (text.length > 0) throw new NormError(`not a valid norm file:\n${text.map((p) => `  - ${p}`).join('\n')}`);
  const f = data as Partial<NormFile>;
  const problems: string[] = [];
  if (f.format !== 'assay-norms/1' && f.format !== 'assay-norms/2') problems.push('format must be "assay-norms/1" or "assay-norms/2"');
  else if (f.format === 'assay-norms/1' && hasReliability({ scales: f.scales ?? {}, competences: f.competences ?? {} }))
    problems.push('reliability needs format "assay-norms/2"');
  if (typeof f.name !== 'string' || !f.name.trim() || f.name.length > NORM_LIMITS.name) problems.push(`name must be 1 to ${NORM_LIMITS.name} characters`);
  else problems.push(...textProblems({ name: f.name }));
  if (typeof f.source !== 'string' || !f.source.trim()) problems.push('source must say where the norms come from');
  // Every tenant's results carry the source: a bounded sentence or two, not a document.
  else if (f.source.length > NORM_LIMITS.source) problems.push(`source must be at most ${NORM_LIMITS.source} characters (it has ${f.source.length})`);
  else problems.push(...textProblems({ source: f.source }));
  if (f.description !== undefined) problems.push(...descriptionProblems(f.description));
  if (!Number.isInteger(f.sampleSize) || (f.sampleSize ?? 0) < 2) problems.push('sampleSize must be a whole number of at least 2');
  for (const key of ['collectedFrom', 'collectedTo'] as const) {
    const v = f[key];
    if (v !== undefined && v !== null && (typeof v !== 'string' || !DATE.test(v))) problems.push(`${key} must be a date (YYYY-MM-DD) or null`);
  }
  if (f.illustrative !== undefined && typeof f.illustrative !== 'boolean') problems.push('illustrative must be true or false');
  if (f.format === 'assay-norms/1' && (f.contentVersion != null || f.language != null))
    problems.push('contentVersion and language need format "assay-norms/2"');
  if (f.contentVersion != null && (typeof f.contentVersion !== 'string' || !/^[\w.-]{1,40}$/.test(f.contentVersion)))
    problems.push('contentVersion must be a version such as "1.0.0", or null');
  if (f.language != null && f.language !== 'nl' && f.language !== 'en') problems.push('language must be "nl", "en" or null');
  const instrument = [...instruments.values()].find((i) => i.code === f.instrument);
  if (f.sample !== undefined && f.format !== 'assay-norms/2') problems.push('sample needs format "assay-norms/2"');
  else if (f.sample !== undefined && instrument)
    problems.push(
      ...sampleAccountProblems(
        f.sample,
        instrument.scales.map((s) => s.id),
      ),
    );
  if (f.consistency !== undefined && f.format !== 'assay-norms/2') problems.push('consistency needs format "assay-norms/2"');
  else if (f.consistency !== undefined && instrument) problems.push(...consistencyProblems(f.consistency, instrument));
  if (f.careless !== undefined && f.format !== 'assay-norms/2') problems.push('careless needs format "assay-norms/2"');
  else if (f.careless !== undefined && instrument) problems.push(...carelessProblems(f.careless, instrument));
  if (!instrument) problems.push(`instrument must be ${[...instruments.values()].map((i) => `"${i.code}"`).join(', ')}`);
  else {
    const table = { scales: f.scales, competences: f.competences ?? {} } as Partial<NormTable>;
    problems.push(
      ...normTableProblems(
        table,
        instrument.scales.map((s) => s.id),
        new Set(competencesFor(model, instrument).map((c) => c.code)),
        instrument.responseScale,
      ),
    );
  }
  if (problems.length > 0) throw new NormError(`not a valid norm file:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return {
    name: f.name!.trim(),
    assessmentType: instrument!.assessmentType,
    source: f.source!.trim(),
    ...(f.description !== undefined ? { description: trimmedDescription(f.description) } : {}),
    sampleSize: f.sampleSize!,
    collectedFrom: f.collectedFrom ?? null,
    collectedTo: f.collectedTo ?? null,
    illustrative: f.illustrative ?? false,
    contentVersion: f.contentVersion ?? null,
    language: f.language ?? null,
    table: {
      scales: f.scales!,
      competences: f.competences ?? {},
      ...(f.consistency !== undefined ? { consistency: f.consistency } : {}),
      ...(f.careless !== undefined ? { careless: f.careless } : {}),
    },
    ...(f.sample !== undefined ? { sample: f.sample } : {}),
  };
}

/** A norm group as a norm file, the inverse of `parseNormFile`. */
export function toNormFile(group: Omit<NormGroup, 'id'>, instrument: Instrument): NormFile {
  const version2 =
    hasReliability(group.table) ||
    group.table.consistency !== undefined ||
    group.table.careless !== undefined ||
    group.contentVersion !== null ||
    group.language !== null ||
    group.sample !== undefined;
  return {
    format: version2 ? 'assay-norms/2' : 'assay-norms/1',
    name: group.name,
    instrument: instrument.code,
    source: group.source,
    ...(group.description ? { description: group.description } : {}),
    sampleSize: group.sampleSize,
    collectedFrom: group.collectedFrom,
    collectedTo: group.collectedTo,
    illustrative: group.illustrative,
    ...(version2 ? { contentVersion: group.contentVersion, language: group.language } : {}),
    ...(group.sample ? { sample: group.sample } : {}),
    scales: group.table.scales,
    competences: group.table.competences,
    ...(group.table.consistency ? { consistency: group.table.consistency } : {}),
    ...(group.table.careless ? { careless: group.table.careless } : {}),
  };
}

/** A file's consistency entry: the instrument's own antonym pairs in order, each r from -1 to 1, a percentile and a threshold from 0 to 100. */
function consistencyProblems(c: unknown, instrument: Instrument): string[] {
  const entry = c as Partial<NonNullable<NormTable['consistency']>> | null;
  const want = instrument.consistencyAntonyms ?? [];
  if (!want.length) return [`consistency: ${instrument.code} has no antonym pairs (consistencyAntonyms)`];
  const problems: string[] = [];
  const pairs = Array.isArray(entry?.pairs) ? entry.pairs : [];
  const same =
    pairs.length === want.length &&
    pairs.every((p, i) => Array.isArray(p?.items) && p.items[0] === want[i]![0] && p.items[1] === want[i]![1] && typeof p.r === 'number' && Math.abs(p.r) <= 1);
  if (!same) problems.push(`consistency.pairs must be ${instrument.code}'s consistencyAntonyms, in order, each as {items, r from -1 to 1}`);
  const inRange = (x: unknown, lo: number, hi: number) => typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi;
  if (!inRange(entry?.percentile, 0, 100)) problems.push('consistency.percentile must be a number from 0 to 100');
  if (!inRange(entry?.threshold, 0, 100)) problems.push('consistency.threshold must be a number from 0 to 100');
  return problems;
}

/** Whether any norm of the table carries its reliability. */
export function hasReliability(table: NormTable): boolean {
  return [...Object.values(table.scales), ...Object.values(table.competences)].some((n) => n?.reliability !== undefined);
}
