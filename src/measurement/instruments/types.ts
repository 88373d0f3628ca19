import type { Language } from '../../domain/language.js';

export { LANGUAGES, type Language } from '../../domain/language.js';
export type Localized = Record<Language, string>;

/** The answers an instrument's statements take: consecutive integers from min to max, 2 to 11 of them. */
export interface ResponseRange {
  min: number;
  max: number;
}

/** The fewest and most points a response scale may have. */
export const RESPONSE_POINTS = { min: 2, max: 11 } as const;

/**
 * The range of a raw score where a caller names none: the five-point scale of TMA170 and TMA312.
 * Every caller in Assay passes its instrument's own response scale.
 */
export const FIVE_POINTS: ResponseRange = { min: 1, max: 5 };

export interface Scale {
  id: string;
  /** Stable integer: the `ID` callers of the results endpoint see. Never reused for another scale. */
  number: number;
  name: Localized;
  description: Localized;
  /** A narrow scale's broad domain (another scale's id): the report shows it under that domain. */
  domain?: string;
  /** Against the published form (`publishedForm`): its item count there, and r of the shipped score with the published one in the norm sample. */
  published?: { items: number; r: number };
}

/** The published inventory a shortened form comes from (the SPI: psychTools::spi.keys), as content/norms/build-spi.sh computes it. */
export interface PublishedForm {
  source: string;
  items: number;
  scales: number;
  /** The norm sample each scale's r was computed in: its N. */
  sampleSize: number;
  /** Its scales the shipped form leaves out, with their item counts. */
  leftOut: Array<{ key: string; items: number }>;
}

export type Keying = 'positive' | 'negative';

export interface Item {
  id: string;
  /** The scale the item belongs to, and how it is keyed there. */
  scale: string;
  keying: Keying;
  /** Further scales the item counts for, each with its own keying (an SPI item counts for its narrow scale and its domain). */
  alsoScales?: Array<{ scale: string; keying: Keying }>;
  text: Localized;
}

/** Every scale an item counts for, with its keying there: its own scale first. */
export function itemKeys(item: Item): Array<{ scale: string; keying: Keying }> {
  return [{ scale: item.scale, keying: item.keying }, ...(item.alsoScales ?? [])];
}

/** One assessment type's content: data, loaded from content/instruments or ASSESSMENT_CONTENT_DIR. */
export interface Instrument {
  format: 'assay-instrument/1';
  code: 'TMA170' | 'TMA312' | 'SPI';
  assessmentType: 0 | 1 | 2;
  version: string;
  name: Localized;
  description: Localized;
  estimatedMinutes: number;
  itemsPerPage: number;
  /** Any 2 to 11 consecutive integers from 0 up, a label for each in each language. */
  responseScale: ResponseRange & { labels: Record<Language, string[]> };
  scales: Scale[];
  items: Item[];
  /**
   * Pairs of items on one scale that a careful respondent answers alike (after reverse keying):
   * the consistency score. Optional: without it an instrument has no consistency score.
   */
  consistencyPairs?: Array<[string, string]>;
  /**
   * Pairs of items, on any scales, whose answers run opposite ways in a norm sample (found there by
   * content/norms/build-spi.sh): the consistency score turns the second item's answer round. An
   * instrument has these or consistencyPairs, not both; the threshold comes from the norm group.
   */
  consistencyAntonyms?: Array<[string, string]>;
  /** The language the content was written in, and translations made from it with who made them and what a result taken in one must say. */
  languages?: { source: Language; translations?: Partial<Record<Language, { by: string; note: Localized }>> };
  /** What it measures, for the words around the scores: work motivation (the default) or personality. */
  kind?: 'motivation' | 'personality';
  /** Where the content comes from and under which terms (content/README.md). */
  provenance?: string;
  /** Where it is a shortened form of a published inventory: what that has and what is left out. */
  publishedForm?: PublishedForm;
  scoring: { method: 'mean'; reverseKeyed: 'min+max-response' };
}

export interface ScaleScore {
  scale: string;
  raw: number;
  mean: number;
  items: number;
}
