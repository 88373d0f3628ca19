import { FIVE_POINTS, LANGUAGES, type ResponseRange, type ScaleScore } from './instruments/types.js';
import type { Instrument } from './instruments/types.js';
import type { Competence, CompetenceModel, CompetenceScore } from './types.js';

/** The competences of the model that apply to an instrument: none unless the model names it (or names none). */
export function competencesFor(model: CompetenceModel, instrument: Pick<Instrument, 'code'>): Competence[] {
  return !model.instruments || model.instruments.includes(instrument.code) ? model.competences : [];
}

/** Rounds to two decimals, as every raw score Assay reports. */
export const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Each competence's raw score: the weighted mean of its scales' raw scores (on the instrument's
 * response scale), a scale with a negative weight entering reversed (min + max − score) with the
 * absolute weight, so it stays on that scale.
 */
export function competenceScores(model: CompetenceModel, scales: readonly ScaleScore[], { min, max }: ResponseRange = FIVE_POINTS): CompetenceScore[] {
  const mean = new Map(scales.map((s) => [s.scale, s.mean]));
  return model.competences.map((c) => {
    let total = 0;
    let weights = 0;
    for (const { scale, weight } of c.scales) {
      const score = mean.get(scale);
      if (score === undefined) throw new Error(`competence ${c.code} needs scale "${scale}", which has no score`);
      total += Math.abs(weight) * (weight > 0 ? score : min + max - score);
      weights += Math.abs(weight);
    }
    return { competence: c.code, raw: round2(total / weights) };
  });
}

/** Every problem with a competence model file, in words an operator can act on; [] when sound. */
export function competenceProblems(data: unknown, scaleIds: ReadonlySet<string>): string[] {
  if (typeof data !== 'object' || data === null) return ['the file does not hold a JSON object'];
  const m = data as Partial<CompetenceModel>;
  const problems: string[] = [];
  if (m.format !== 'assay-competences/1') problems.push('format must be "assay-competences/1"');
  if (typeof m.version !== 'string' || !m.version) problems.push('version is missing');
  if (!Array.isArray(m.competences) || m.competences.length === 0) return [...problems, 'competences must be a non-empty list'];
  const ids = new Set<number>();
  const codes = new Set<string>();
  m.competences.forEach((c, i) => {
    const label = typeof c?.code === 'string' ? `competence ${c.code}` : `competences[${i}]`;
    if (!Number.isInteger(c?.id) || c.id < 1 || ids.has(c.id)) problems.push(`${label} needs a unique positive integer id`);
    else ids.add(c.id);
    if (typeof c?.code !== 'string' || !/^[A-Z][A-Z0-9_]{1,63}$/.test(c.code) || codes.has(c.code))
      problems.push(`${label} needs a unique UPPER_SNAKE_CASE code`);
    else codes.add(c.code);
    for (const field of ['name', 'description'] as const) {
      for (const lang of LANGUAGES) {
        const text = (c?.[field] as Record<string, unknown> | undefined)?.[lang];
        if (typeof text !== 'string' || !text.trim()) problems.push(`${label} has no ${lang} ${field}`);
      }
    }
    if (!Array.isArray(c?.scales) || c.scales.length === 0) return problems.push(`${label} needs scales`);
    const used = new Set<string>();
    for (const w of c.scales) {
      if (!scaleIds.has(w?.scale)) problems.push(`${label} uses unknown scale "${String(w?.scale)}"`);
      if (used.has(w?.scale)) problems.push(`${label} uses scale "${w.scale}" twice`);
      used.add(w?.scale);
      if (!Number.isInteger(w?.weight) || w.weight === 0 || Math.abs(w.weight) > 3)
        problems.push(`${label}: weight of "${String(w?.scale)}" must be a non-zero integer from -3 to 3`);
    }
    return undefined;
  });
  return problems;
}
