export type Language = 'nl' | 'en';
export const LANGUAGES: readonly Language[] = ['nl', 'en'];
export type Localized = Record<Language, string>;

export interface Scale {
  id: string;
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
  scoring: { method: 'mean'; reverseKeyed: 'min+max-response' };
}

export interface ScaleScore {
  scale: string;
  raw: number;
  mean: number;
  items: number;
}
