import type { Language } from '../../domain/language.js';

export { LANGUAGES, type Language } from '../../domain/language.js';
export type Localized = Record<Language, string>;

export interface Scale {
  id: string;
  /** Stable integer: the `ID` callers of the results endpoint see. Never reused for another scale. */
  number: number;
  name: Localized;
  description: Localized;
}

export interface Item {
  id: string;
  scale: string;
  keying: 'positive' | 'negative';
  text: Localized;
}

/** One assessment type's content: data, loaded from content/instruments or ASSESSMENT_CONTENT_DIR. */
export interface Instrument {
  format: 'assay-instrument/1';
  code: 'TMA170' | 'TMA312';
  assessmentType: 0 | 1;
  version: string;
  name: Localized;
  description: Localized;
  estimatedMinutes: number;
  itemsPerPage: number;
  responseScale: { min: number; max: number; labels: Record<Language, string[]> };
  scales: Scale[];
  items: Item[];
  /**
   * Pairs of items on one scale that a careful respondent answers alike (after reverse keying):
   * the consistency score. Optional: without it an instrument has no consistency score.
   */
  consistencyPairs?: Array<[string, string]>;
  scoring: { method: 'mean'; reverseKeyed: 'min+max-response' };
}

export interface ScaleScore {
  scale: string;
  raw: number;
  mean: number;
  items: number;
}
