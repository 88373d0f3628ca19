import type { Instruments } from '../measurement/instruments/load.js';
import { LANGUAGES, type Localized } from '../measurement/instruments/types.js';
import { ContentError, readContent } from '../measurement/load.js';
import type { Scored } from '../measurement/result.js';

export type Band = 'low' | 'average' | 'high';
export const BANDS: readonly Band[] = ['low', 'average', 'high'];

export interface Interpretations {
  format: 'assay-interpretations/1';
  version: string;
  scales: Record<string, { report: Record<Band, Localized>; feedback: Record<Band, Localized> }>;
}

/**
 * Where a score stands against a norm group: sten 1–3 low, 4–7 average, 8–10 high. Without one
 * there is no band: a raw score says how someone answered, not how they compare with others.
 */
export function band(s: Pick<Scored, 'sten'>): Band | null {
  if (s.sten === undefined) return null;
  return s.sten <= 3 ? 'low' : s.sten >= 8 ? 'high' : 'average';
}

/**
 * Loads the per-scale band texts. An instrument has texts for every scale or for none (then a
 * report and the feedback page describe each scale by what it measures, as without norms); a scale
 * with texts has all twelve.
 */
export function loadInterpretations(file: string, instruments: Instruments): Interpretations {
  const data = readContent(file) as Partial<Interpretations>;
  const problems: string[] = [];
  if (data?.format !== 'assay-interpretations/1') problems.push('format must be "assay-interpretations/1"');
  const written = (id: string) => data?.scales?.[id] !== undefined;
  const scales = new Set([...instruments.values()].filter((i) => i.scales.some((s) => written(s.id))).flatMap((i) => i.scales.map((s) => s.id)));
  for (const id of scales) {
    for (const audience of ['report', 'feedback'] as const) {
      for (const b of BANDS) {
        for (const lang of LANGUAGES) {
          const text = data?.scales?.[id]?.[audience]?.[b]?.[lang];
          if (typeof text !== 'string' || !text.trim()) problems.push(`scale "${id}" has no ${audience} text for ${b} in ${lang}`);
        }
      }
    }
  }
  if (problems.length)
    throw new ContentError(
      `${file} is not valid:\n${problems
        .slice(0, 10)
        .map((p) => `  - ${p}`)
        .join('\n')}`,
    );
  return data as Interpretations;
}
