import { FIVE_POINTS, type Instrument, type Language, type ResponseRange } from '../measurement/instruments/types.js';
import { fullName } from '../domain/names.js';
import type { Result, Scored } from '../measurement/result.js';
import type { IntegrityFlag, NormGroup } from '../measurement/types.js';
import { hasFairness, type ScaleFairness } from '../measurement/fairness.js';
import { formNote } from './form-note.js';
import { band, type Band, type Interpretations } from './interpretations.js';
import { bandSpan, spanLabel, spanLead } from './band-words.js';
import { longDate, reportTexts, type ReportTexts } from './texts.js';

export interface ReportScale extends Scored {
  /** A narrow scale shown under its domain, which comes before it. */
  narrow?: boolean;
  /** The sten's own band; null without a norm group: nothing to compare with. */
  band: Band | null;
  /** The bands its 90% band reaches, as words ("Average to high"); absent, the band's own word. */
  bandLabel?: string;
  /** Either four-fifths ratio below 0.80 in the norm group: the table marks the scale. */
  adverse?: true;
  /** The band's interpretation, led by what the 90% band reaches when it crosses into another band; without a norm group, what the scale measures. */
  interpretation: string;
}

/** Everything a report shows, in one language: the HTML page and the PDF both render this. */
export interface ReportModel {
  lang: Language;
  /** What the instrument measures; with lang it picks `t` (a PDF thread makes `t` again from both). */
  kind?: 'motivation' | 'personality';
  t: ReportTexts;
  candidateName: string;
  instrumentName: string;
  completedOn: string;
  /** The instrument's response scale, on which raw scores lie; absent, the five-point scale. */
  rawRange?: ResponseRange;
  /**
   * The norm group line, or the statement that the scores are not norm-referenced; `about`, who the
   * group's people are (e.g. volunteers, not applicants): its description in the report's language,
   * else in English, else its whole source as recorded.
   */
  norm: { normed: boolean; line: string; illustrative: boolean; about?: string };
  /** Taken in a translation with no norms or evidence of its own: the instrument's sentence saying so. */
  translationNote?: string;
  /** A shortened form (the SPI): which items it asked against the published one. */
  formNote?: string;
  scales: ReportScale[];
  /** Per scale, how it differs between women and men in the norm group; absent where the group records no gender. */
  fairness?: ReportFairness[];
  /** With Mosier's reliability in the norm group's sample, where the group records it. */
  competences: Array<Scored & { reliability?: number }>;
  consistency: string;
  flags: Array<{ flag: IntegrityFlag; text: string }>;
}

/** One scale's row of the fairness section (measurement/fairness.ts), under its domain like the score table. */
export interface ReportFairness extends Omit<ScaleFairness, 'scale' | 'id'> {
  name: string;
  narrow?: boolean;
}

export interface ReportInput {
  lang: Language;
  candidate: { first_name: string; preposition: string; last_name: string };
  instrument: Instrument;
  completedAt: string;
  result: Result;
  interpretations: Interpretations;
  /** The content version the assessment was completed under: the form note describes the version loaded now only. */
  contentVersion?: string | null;
}

export function reportModel({ lang, candidate, instrument, completedAt, result, interpretations, contentVersion }: ReportInput): ReportModel {
  const t = reportTexts(lang, instrument.kind);
  const form = contentVersion === instrument.version ? formNote(instrument, lang) : undefined;
  const group = result.normGroup;
  const about = group && aboutGroup(group, lang);
  const fair = new Map(hasFairness(result.fairness) ? result.fairness.map((f) => [f.id, f]) : []);
  const scales = underDomains(instrument, result.scales).map(({ s, narrow }): ReportScale => {
    const b = band(s);
    const span = bandSpan(s);
    const scale = instrument.scales.find((x) => x.number === s.id)!;
    const text = b && interpretations.scales[scale.id] ? interpretations.scales[scale.id]!.report[b][lang] : scale.description[lang];
    const lead = b && span ? spanLead(span, b, lang, 'report') : '';
    return {
      ...s,
      ...(narrow ? { narrow } : {}),
      ...(fair.get(s.id)?.adverse ? { adverse: true as const } : {}),
      band: b,
      ...(span ? { bandLabel: spanLabel(span, lang) } : {}),
      interpretation: lead ? `${lead} ${text}` : text,
    };
  });
  return {
    lang,
    ...(instrument.kind ? { kind: instrument.kind } : {}),
    t,
    candidateName: fullName(candidate),
    instrumentName: `${instrument.name[lang]} (${instrument.code})`,
    completedOn: longDate(completedAt, lang),
    rawRange: { min: instrument.responseScale.min, max: instrument.responseScale.max },
    norm: group
      ? {
          normed: true,
          line: t.normed(group.name, group.sampleSize, t.period(group.collectedFrom, group.collectedTo)),
          illustrative: group.illustrative,
          ...(about ? { about } : {}),
        }
      : { normed: false, line: t.notNormed, illustrative: false },
    ...(result.translationNote ? { translationNote: result.translationNote[lang] } : {}),
    ...(form ? { formNote: form } : {}),
    scales,
    ...(fair.size ? { fairness: fairnessRows(scales, fair) } : {}),
    competences: result.competences.map((c) => {
      const alpha = group?.table.competences[c.code]?.reliability?.alpha;
      return alpha === undefined ? c : { ...c, reliability: alpha };
    }),
    consistency: result.consistency === undefined ? t.noConsistency : t.consistency(result.consistency),
    flags: result.flags.map((flag) => ({ flag, text: t.flags[flag] })),
  };
}

function fairnessRows(scales: readonly ReportScale[], fair: ReadonlyMap<number, ScaleFairness>): ReportFairness[] {
  return scales.flatMap((s) => {
    const f = fair.get(s.id);
    if (!f) return [];
    const { scale, id, ...figures } = f;
    return [{ name: s.name, ...(s.narrow ? { narrow: true } : {}), ...figures }];
  });
}

const f2 = (x: number | null) => (x === null ? '–' : x.toFixed(2));

/** A fairness row's cells as both renderings print them: d, its interval, the ratio at sten 7+ and at 4−; '–' where the group has none. */
export function fairnessCells(f: ReportFairness): [string, string, string, string] {
  const interval = f.dLower !== null && f.dUpper !== null ? `[${f2(f.dLower)}, ${f2(f.dUpper)}]` : '–';
  return [f2(f.d), interval, f2(f.ratioHigh), f2(f.ratioLow)];
}

/** The mark after an adverse scale's name where its sten is shown, explained by `t.fairness.adverse` beneath. */
export const ADVERSE_MARK = '†';

/** The scale's name as the chart and the PDF's table print it: with the mark when adverse. */
export const markedName = (s: Pick<ReportScale, 'name' | 'adverse'>): string => (s.adverse ? `${s.name} ${ADVERSE_MARK}` : s.name);

/** Who the group's people are, for a recruiter: the description in `lang`, else the English one, else the source. */
function aboutGroup(group: NormGroup, lang: Language): string {
  return group.description?.[lang] ?? group.description?.en ?? group.source;
}

/** The 90% band of a sten as the report prints it, or '–' when the norm group records no reliability. */
export function bandText(s: Pick<ReportScale, 'stenBand'>): string {
  return s.stenBand ? `${s.stenBand.low.toFixed(1)}–${s.stenBand.high.toFixed(1)}` : '–';
}

/** A scale's band in words, '–' without one. */
export function bandWords(s: Pick<ReportScale, 'band' | 'bandLabel'>, t: ReportTexts): string {
  return s.bandLabel ?? (s.band ? t.bands[s.band] : '–');
}

/** Whether any sten of the report has a band: only then does the report show the column and the sentence. */
export const hasBands = (m: ReportModel): boolean => m.scales.some((s) => s.stenBand !== undefined);

/** The report's rows as domains, each with its narrow scales; null when no scale is narrow (TMA170, TMA312). */
export function domainGroups(m: Pick<ReportModel, 'scales'>): Array<{ domain: ReportScale; narrow: ReportScale[] }> | null {
  if (!m.scales.some((s) => s.narrow)) return null;
  const groups: Array<{ domain: ReportScale; narrow: ReportScale[] }> = [];
  for (const s of m.scales) {
    if (s.narrow && groups.length) groups.at(-1)!.narrow.push(s);
    else groups.push({ domain: s, narrow: [] });
  }
  return groups;
}

/** How to read the report: stens explained when normed; without a norm group, what a raw score can and cannot say. */
export function howToRead(m: ReportModel): readonly string[] {
  return m.norm.normed ? m.t.howToReadItems : [m.t.howToReadItems[0]!, m.t.howToReadRaw(rawRange(m))];
}

/** The response scale the model's raw scores lie on. */
export function rawRange(m: Pick<ReportModel, 'rawRange'>): ResponseRange {
  return m.rawRange ?? FIVE_POINTS;
}

/** The scales in the instrument's order, each narrow scale moved under its domain (after it and its earlier narrow scales). */
function underDomains(instrument: Instrument, scored: readonly Scored[]): Array<{ s: Scored; narrow: boolean }> {
  const domainOf = new Map(instrument.scales.map((x) => [x.number, instrument.scales.find((d) => d.id === x.domain)?.number]));
  const has = new Set(scored.map((s) => s.id));
  const top = (s: Scored) => domainOf.get(s.id) === undefined || !has.has(domainOf.get(s.id)!);
  const tops = scored.filter(top);
  return tops.flatMap((d) => [{ s: d, narrow: false }, ...scored.filter((s) => !top(s) && domainOf.get(s.id) === d.id).map((s) => ({ s, narrow: true }))]);
}
