import { itemKeys, type Instrument, type Language } from '../measurement/instruments/types.js';

/** r as a report prints it: two decimals, no leading zero (".91", Dutch ",91"). */
const r2 = (r: number, lang: Language) => (r >= 0.995 ? '1' : r.toFixed(2).replace(/^0/, '')).replace('.', lang === 'nl' ? ',' : '.');

/**
 * Which items a shortened form (the SPI) asks against the published one, in one sentence or three:
 * the report must not pass it off as the published inventory. Undefined for an instrument that is not one.
 */
export function formNote(instrument: Instrument, lang: Language): string | undefined {
  const form = instrument.publishedForm;
  if (!form) return undefined;
  const count = (id: string) => instrument.items.filter((i) => itemKeys(i).some((k) => k.scale === id)).length;
  const short = instrument.scales.filter((s) => s.published && count(s.id) < s.published.items);
  const n = instrument.items.length;
  if (lang === 'nl') {
    const scales = short.map((s) => `${s.name.nl} ${count(s.id)} van ${s.published!.items} (r = ${r2(s.published!.r, lang)})`).join('; ');
    return [
      `Afgenomen versie: ${n} van de ${form.items} uitspraken van de gepubliceerde ${instrument.name.nl} (${form.source}).`,
      ...form.leftOut.map((l) => `Weggelaten: de schaal ${l.key} (${l.items} uitspraken).`),
      ...(short.length
        ? [
            `Schalen met minder uitspraken, met de correlatie van hun score met de gepubliceerde score in de volwassen normsteekproef (N = ${form.sampleSize.toLocaleString('nl')}): ${scales}.`,
          ]
        : []),
    ].join(' ');
  }
  const scales = short.map((s) => `${s.name.en} ${count(s.id)} of ${s.published!.items} (r = ${r2(s.published!.r, lang)})`).join('; ');
  return [
    `Form taken: ${n} of the ${form.items} statements of the published ${instrument.name.en} (${form.source}).`,
    ...form.leftOut.map((l) => `Left out: the ${l.key} scale (${l.items} statements).`),
    ...(short.length
      ? [
          `Scales with fewer statements, with the correlation of their score with the published score in the adult norm sample (N = ${form.sampleSize.toLocaleString('en')}): ${scales}.`,
        ]
      : []),
  ].join(' ');
}
