import type { ReportModel } from '../../src/reports/model.js';
import { REPORT_TEXTS } from '../../src/reports/texts.js';

/** A report of five scales in English for the candidate `name`; give a name in other scripts to draw fallback fonts. */
export function reportModel(name: string): ReportModel {
  const t = REPORT_TEXTS.en;
  const scales = [1, 2, 3, 4, 5].map((i) => ({
    id: i,
    code: `S${i}`,
    name: `Scale ${i}`,
    description: '',
    raw: 1 + i * 0.7,
    sten: 2 * i - 1,
    percentile: 20 * i - 10,
    band: i < 2 ? ('low' as const) : i > 4 ? ('high' as const) : ('average' as const),
    interpretation: `Scale ${i} interpretation: works steadily through routine tasks, and prefers clear agreements about who does what.`,
  }));
  return {
    lang: 'en',
    t,
    candidateName: name,
    instrumentName: 'Motivation questionnaire (TMA170)',
    completedOn: '1 March 2026',
    norm: { normed: true, line: 'Working population (1,000 people)', illustrative: false },
    scales,
    competences: scales.slice(0, 3).map(({ band: _band, interpretation: _interpretation, ...s }) => ({ ...s, name: `Competence ${s.id}` })),
    consistency: t.consistency(0.82),
    flags: [{ flag: 'Speeding', text: t.flags.Speeding }],
  };
}
