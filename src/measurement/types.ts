import type { Localized, ScaleScore } from './instruments/types.js';
import type { Language } from '../domain/language.js';

/** One work competence: a weighted combination of scales (content/competences). */
export interface Competence {
  id: number;
  code: string;
  name: Localized;
  description: Localized;
  scales: Array<{ scale: string; weight: number }>;
}

export interface CompetenceModel {
  format: 'assay-competences/1';
  version: string;
  /** The instruments (codes) whose scales the model combines; absent, every instrument. */
  instruments?: string[];
  description: Localized;
  competences: Competence[];
}

/** A competence's raw score: the weighted mean of its scales, on the instrument's response scale. */
export interface CompetenceScore {
  competence: string;
  raw: number;
}

/**
 * One scale's or competence's norm: the sample's mean and SD of the raw score and, when known,
 * its distribution as [raw value, share of the sample with exactly that value], sorted by value.
 */
export interface Norm {
  mean: number;
  sd: number;
  distribution?: Array<[number, number]>;
  /** How precisely the sample measured it; absent for groups imported without it ("precision unknown"). */
  reliability?: NormReliability;
}

/**
 * A scale's or competence's reliability in a norm group's sample (docs/PSYCHOMETRICS.md): alpha
 * with Feldt's 95% interval for a scale, Mosier's composite reliability for a competence; the
 * standard error of measurement of the raw score and in stens; for a scale, each item's figures.
 */
export interface NormReliability {
  alpha: number;
  alphaLower?: number;
  alphaUpper?: number;
  sem: number;
  semSten: number;
  /** Per item; a figure that does not exist (alpha of a single remaining item) is left out. */
  items?: Array<{ id: string; itemRest?: number; alphaIfDeleted?: number }>;
}

/** What a norm group says about an instrument: by scale id and by competence code. */
export interface NormTable {
  scales: Record<string, Norm>;
  competences: Record<string, Norm>;
  /** For an instrument with antonym pairs: the pairs' r in the sample and its LowConsistency threshold. */
  consistency?: ConsistencyNorm;
  /** For an instrument without declared pairs: the careless-responding indices calibrated on the sample (careless/calibrate.ts). */
  careless?: CarelessNorm;
}

/** The careless-responding indices, each named by the flag it raises (docs/PSYCHOMETRICS.md). */
export const CARELESS_INDICES = ['EvenOdd', 'Synonyms', 'LongString', 'Outlier'] as const;
export type CarelessIndex = (typeof CARELESS_INDICES)[number];

/**
 * The careless-responding indices as a norm sample calibrated them: per index the side on which
 * careless answers lie, the threshold (flagged strictly beyond it) and the share of the sample it
 * flags; `flagged` is the share any of them flags, at most `target`. The synonym pairs (|r| at or
 * above `cutoff`, the second item turned round where r < 0) and the item means and covariance
 * (lower triangle, row by row, in the order of `items`) are the sample's own.
 */
export interface CarelessNorm {
  target: number;
  flagged: number;
  indices: Record<CarelessIndex, { direction: 'low' | 'high'; threshold: number; falsePositive: number }>;
  synonyms: { cutoff: number; pairs: Array<{ items: [string, string]; r: number }> };
  outlier: { items: string[]; mean: number[]; covariance: number[][] };
  /** The share flagged (of n) by gender (the API's code names) and by age band, where the sample records them. */
  rates?: { gender?: Record<string, { n: number; flagged: number }>; age?: Record<string, { n: number; flagged: number }> };
}

/**
 * A sample's consistency evidence (consistency-norm.ts): each antonym pair with its Pearson r, and
 * the consistency score at the sample's `percentile` (1): a result scoring at or below `threshold`
 * is flagged LowConsistency.
 */
export interface ConsistencyNorm {
  pairs: Array<{ items: [string, string]; r: number }>;
  percentile: number;
  threshold: number;
}

/** A norm group as stored and as shown with every result that used it. */
export interface NormGroup {
  id: string;
  name: string;
  assessmentType: number;
  source: string;
  sampleSize: number;
  collectedFrom: string | null;
  collectedTo: string | null;
  /** An example for trying Assay out: never for selection decisions. */
  illustrative: boolean;
  /** The sample's content version and language, where known (a group built by Assay records both). */
  contentVersion: string | null;
  language: string | null;
  table: NormTable;
  /** Who the sample is and who was left out; absent for groups stored or imported without it ("not recorded"). */
  sample?: NormSampleAccount;
  /** Who the sample is in a sentence or two, by language, for the report; absent: the report shows `source`. */
  description?: NormDescription;
}

/** A norm group's plain description by language (nl, en), each at most 300 characters. */
export type NormDescription = Partial<Record<Language, string>>;

/** One gender's figures on a scale: how many, their mean raw score, how many scored sten 7 or more; below 30 the count only. */
export interface SubgroupCount {
  n: number;
  mean: number | null;
  high: number | null;
  /** How many scored sten 4 or less; absent in groups built before Assay counted it. */
  low?: number | null;
}

/**
 * One scale's difference between women and men (subgroups.ts): d, female minus male, with its 95%
 * interval, and the four-fifths ratios at sten 7 or more and at 4 or less. The interval and the
 * low ratio are absent in groups built before Assay recorded them: shown where present, never made up.
 */
export interface GenderDifferenceRecord {
  male: SubgroupCount;
  female: SubgroupCount;
  d: number | null;
  dLower?: number | null;
  dUpper?: number | null;
  fourFifths: number | null;
  fourFifthsLow?: number | null;
}

/**
 * A norm group's sample as built (norm-sample.ts): how many were considered, who was left out
 * and why, the gender and age make-up of the members used, and per scale the difference between
 * women and men (Cohen's d, female minus male, with its interval; the four-fifths ratios at sten 7+ and 4-).
 */
export interface NormSampleAccount {
  /** Respondents read, or completed assessments selected, before any exclusion. */
  considered: number;
  /** Left out, by reason (an integrity flag, or OtherLanguage); a member with several flags counts under each. */
  excluded: { total: number; reasons: Record<string, number> };
  /** The members used by the API's Gender code; absent where gender was not recorded. */
  gender?: { unknown: number; male: number; female: number; neutral: number };
  /** The members used whose age is known: range, median and bands; absent where age was not recorded. */
  age?: { known: number; unknown: number; min: number; max: number; median: number; bands: Record<string, number> };
  /** Per scale id; absent where gender was not recorded. The figures are null below 30 of either gender. */
  genderDifferences?: Record<string, GenderDifferenceRecord>;
}

export type IntegrityFlag = 'StraightLining' | 'Speeding' | 'LowConsistency' | CarelessIndex;

/** What completion stores: computed from every answer and the time spent per page. */
export interface CompletedResult {
  scales: ScaleScore[];
  competences: CompetenceScore[];
  consistency: number | undefined;
  flags: IntegrityFlag[];
}
