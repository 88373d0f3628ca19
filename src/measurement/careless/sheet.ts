import type { Instrument } from '../instruments/types.js';
import { AGE_BANDS } from '../norm-sample.js';
import { CARELESS_INDICES, type CarelessIndex, type NormTable } from '../types.js';

const WHAT: Record<CarelessIndex, string> = {
  EvenOdd: 'even-odd consistency (Spearman-Brown)',
  Synonyms: 'psychometric synonyms and antonyms (r)',
  LongString: 'long-string (longest run of one answer)',
  Outlier: 'Mahalanobis distance (squared)',
};
const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const rate = (r: { n: number; flagged: number }) => `${r.flagged} of ${r.n.toLocaleString('en')} (${pct(r.n ? r.flagged / r.n : 0)})`;

/** The technical sheet's account of the careless indices: each with its side, threshold and false-positive rate, and who they flag. */
export function carelessSheet(table: NormTable, instrument: Instrument): string[] {
  const c = table.careless;
  const title = 'Careless responding (flagged strictly beyond each threshold; docs/PSYCHOMETRICS.md)';
  if (!c) {
    const why =
      instrument.consistencyPairs?.length || instrument.consistencyAntonyms?.length
        ? 'the instrument declares its own consistency pairs (LowConsistency)'
        : 'not calibrated for this group';
    return [title, `  not recorded: ${why}`];
  }
  const rows = CARELESS_INDICES.map((ix) => {
    const i = c.indices[ix];
    return `  ${ix.padEnd(11)} ${WHAT[ix].padEnd(42)} ${(i.direction === 'low' ? `below ${i.threshold}` : `above ${i.threshold}`).padEnd(16)} ${pct(i.falsePositive)}`;
  });
  const by = (label: string, of: Record<string, { n: number; flagged: number }> | undefined) =>
    of
      ? [
          `  by ${label}: ${Object.entries(of)
            .map(([k, r]) => `${k} ${rate(r)}`)
            .join('; ')}`,
        ]
      : [];
  return [
    title,
    `  ${'flag'.padEnd(11)} ${'index'.padEnd(42)} ${'flagged when'.padEnd(16)} of the sample`,
    ...rows,
    `  together: ${pct(c.flagged)} of the sample flagged (at most ${pct(c.target)}); ${c.synonyms.pairs.length} item pairs at |r| of ${c.synonyms.cutoff} or more`,
    ...by('gender', c.rates?.gender),
    ...by('age', c.rates?.age && Object.fromEntries(AGE_BANDS.flatMap(([band]) => (c.rates!.age![band] ? [[band, c.rates!.age![band]]] : [])))),
  ];
}
