import type { Instrument, Language } from '../domain/instruments/types.js';
import { fullName } from '../domain/names.js';
import type { Result, Scored } from '../domain/results/result.js';
import type { IntegrityFlag } from '../domain/results/types.js';
import { band, type Band, type Interpretations } from './interpretations.js';
import { longDate, REPORT_TEXTS, type ReportTexts } from './texts.js';

export interface ReportScale extends Scored {
  band: Band;
  interpretation: string;
}

/** Everything a report shows, in one language: the HTML page and the PDF both render this. */
export interface ReportModel {
  lang: Language;
  t: ReportTexts;
  candidateName: string;
  instrumentName: string;
  completedOn: string;
  /** The norm group line, or the statement that the scores are not norm-referenced. */
  norm: { normed: boolean; line: string; illustrative: boolean };
  scales: ReportScale[];
  competences: Scored[];
  consistency: string;
  flags: Array<{ flag: IntegrityFlag; text: string }>;
}

export interface ReportInput {
  lang: Language;
  candidate: { first_name: string; preposition: string; last_name: string };
  instrument: Instrument;
  completedAt: string;
  result: Result;
  interpretations: Interpretations;
}

export function reportModel({ lang, candidate, instrument, completedAt, result, interpretations }: ReportInput): ReportModel {
  const t = REPORT_TEXTS[lang];
  const group = result.normGroup;
  const scales = result.scales.map((s): ReportScale => {
    const b = band(s);
    const id = instrument.scales.find((x) => x.number === s.id)!.id;
    return { ...s, band: b, interpretation: interpretations.scales[id]!.report[b][lang] };
  });
  return {
    lang,
    t,
    candidateName: fullName(candidate),
    instrumentName: `${instrument.name[lang]} (${instrument.code})`,
    completedOn: longDate(completedAt, lang),
    norm: group
      ? { normed: true, line: t.normed(group.name, group.sampleSize, t.period(group.collectedFrom, group.collectedTo)), illustrative: group.illustrative }
      : { normed: false, line: t.notNormed, illustrative: false },
    scales,
    competences: result.competences,
    consistency: result.consistency === undefined ? t.noConsistency : t.consistency(result.consistency),
    flags: result.flags.map((flag) => ({ flag, text: t.flags[flag] })),
  };
}
