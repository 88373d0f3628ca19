import type { Instrument, Language } from './instruments/types.js';
import { buildNormTable } from './norm-groups.js';
import type { CompetenceModel, NormGroup } from './types.js';
import { composition, csvSample } from './csv-sample.js';
import { withOtherLanguage } from './norm-sample.js';

export interface CsvBuild {
  group: Omit<NormGroup, 'id'>;
  read: number;
  used: number;
  flagged: number;
  otherLanguage: number;
}

/**
 * A norm group from a CSV of item responses, built as `norms build` builds one from stored
 * assessments (buildNormTable, the same exclusions and evidence). Its source says what the operator
 * said about the sample, then how Assay built it: every exclusion, the N and the sample's make-up.
 */
export function normGroupFromCsv(opts: {
  text: string;
  fileName: string;
  instrument: Instrument;
  model: CompetenceModel;
  language: Language;
  minSample: number;
  name: string;
  /** The operator's description of the sample: who they are and where the data comes from. */
  about?: string;
}): CsvBuild {
  const { instrument, language } = opts;
  const sample = csvSample(opts.text, instrument, opts.model, language);
  const built = buildNormTable(sample.members, instrument, opts.model, opts.minSample);
  const made = composition(sample);
  const steps = [
    `Built by Assay from ${opts.fileName}: ${sample.read.toLocaleString('en')} respondents read`,
    sample.otherLanguage ? `${sample.otherLanguage.toLocaleString('en')} in another language than ${language} left out` : '',
    `${built.excluded.toLocaleString('en')} with integrity flags left out`,
    `N = ${built.used.toLocaleString('en')}`,
  ].filter(Boolean);
  const source = [opts.about?.trim(), `${steps.join(', ')}.`, made ? `Sample: ${made}.` : ''].filter(Boolean).join(' ');
  return {
    group: {
      name: opts.name,
      assessmentType: instrument.assessmentType,
      source,
      sampleSize: built.used,
      collectedFrom: null,
      collectedTo: null,
      illustrative: false,
      contentVersion: instrument.version,
      language,
      table: built.table,
      sample: withOtherLanguage(built.sample, sample.otherLanguage),
    },
    read: sample.read,
    used: built.used,
    flagged: built.excluded,
    otherLanguage: sample.otherLanguage,
  };
}
