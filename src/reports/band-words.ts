import type { Language } from '../measurement/instruments/types.js';
import type { Scored } from '../measurement/result.js';
import { band, BANDS, type Band } from './interpretations.js';

/** Where a point on the sten line lies: the regions meet at 3.5 and 7.5, where a sten rounds across. */
const regionOf = (x: number): Band => (x < 3.5 ? 'low' : x >= 7.5 ? 'high' : 'average');

/**
 * The bands a sten's 90% band touches, lowest first: the sten's own band alone when it has no
 * band or its band stays in one region. Null without a norm group.
 */
export function bandSpan(s: Pick<Scored, 'sten' | 'stenBand'>): Band[] | null {
  const own = band(s);
  if (!own) return null;
  if (!s.stenBand) return [own];
  return BANDS.slice(BANDS.indexOf(regionOf(s.stenBand.low)), BANDS.indexOf(regionOf(s.stenBand.high)) + 1);
}

const WORDS = {
  en: { low: 'low', average: 'average', high: 'high', to: 'to', and: 'and', or: 'or' },
  nl: { low: 'laag', average: 'gemiddeld', high: 'hoog', to: 'tot', and: 'en', or: 'of' },
} satisfies Record<Language, Record<Band | 'to' | 'and' | 'or', string>>;

const capital = (x: string) => x.charAt(0).toUpperCase() + x.slice(1);

/** A span as a label: "Average", "Average to high"; "Gemiddeld tot hoog". */
export function spanLabel(span: readonly Band[], lang: Language): string {
  const w = WORDS[lang];
  const first = w[span[0]!];
  return capital(span.length === 1 ? first : `${first} ${w.to} ${w[span.at(-1)!]}`);
}

/**
 * The sentence that comes before a band's text when its 90% band crosses into another band;
 * '' when it does not. The report's is for a recruiter, the feedback page's for the candidate.
 */
export function spanLead(span: readonly Band[], own: Band, lang: Language, audience: 'report' | 'feedback'): string {
  if (span.length < 2) return '';
  const w = WORDS[lang];
  const others = span.filter((b) => b !== own).map((b) => w[b]);
  const either = others.join(` ${w.or} `);
  const label = spanLabel(span, lang);
  if (audience === 'feedback') {
    return lang === 'nl'
      ? `${label}: geen vragenlijst meet precies, dus uw score kan ook ${either} zijn.`
      : `${label}: no questionnaire measures exactly, so your score may also be ${either}.`;
  }
  const reached = others.join(` ${w.and} `);
  return lang === 'nl'
    ? `${label}: de sten is ${w[own]}, maar de 90%-band reikt tot ${reached}, dus de score kan ook ${either} zijn.`
    : `${label}: the sten is ${w[own]}, but its 90% band reaches ${reached}, so the score may also be ${either}.`;
}
