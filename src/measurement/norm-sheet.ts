import { itemKeys, type Instrument, type ResponseRange } from './instruments/types.js';
import { carelessSheet } from './careless/sheet.js';
import { reachableStens } from './norms.js';
import { HIGH_STEN, LOW_STEN, MIN_SUBGROUP } from './subgroups.js';
import type { CompetenceModel, GenderDifferenceRecord, Norm, NormGroup, NormSampleAccount, SubgroupCount } from './types.js';

const f2 = (x: number | undefined | null) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(2) : '-');
const pad = (s: string, n: number) => s.padEnd(n);

function row(label: string, n: Norm, range: ResponseRange): string {
  const r = n.reliability;
  const interval = r?.alphaLower !== undefined && r.alphaUpper !== undefined ? `[${f2(r.alphaLower)}, ${f2(r.alphaUpper)}]` : '-';
  const reach = reachableStens(n, range);
  return `  ${pad(label, 28)} ${pad(f2(n.mean), 6)} ${pad(f2(n.sd), 6)} ${pad(f2(r?.alpha), 6)} ${pad(interval, 14)} ${pad(f2(r?.sem), 6)} ${pad(f2(r?.semSten), 12)} ${reach.low}–${reach.high}`;
}

/** Each scale's reachable stens in the group (by scale id), for `norms show --json`. */
export function reachableStensOf(group: NormGroup, instrument: Instrument): Record<string, { low: number; high: number }> {
  const scales = instrument.scales.filter((s) => group.table.scales[s.id]);
  return Object.fromEntries(scales.map((s) => [s.id, reachableStens(group.table.scales[s.id]!, instrument.responseScale)]));
}

/** A norm group's technical sheet as text: the sample, and each scale's and competence's figures with their precision. */
export function normSheet(group: NormGroup & { active: boolean }, instrument: Instrument, model: CompetenceModel): string {
  const dates = group.collectedFrom || group.collectedTo ? `${group.collectedFrom ?? '…'} to ${group.collectedTo ?? '…'}` : 'not recorded';
  const header = `  ${pad('', 28)} ${pad('mean', 6)} ${pad('SD', 6)} ${pad('alpha', 6)} ${pad('95% interval', 14)} ${pad('SEM', 6)} ${pad('SEM in stens', 12)} stens reachable`;
  const lines = [
    `Norm group ${group.id} "${group.name}"`,
    `  instrument:    ${instrument.code} (${instrument.name.en})`,
    `  sample:        N = ${group.sampleSize}, collected ${dates}`,
    `  language:      ${group.language ?? 'not recorded'}; content version ${group.contentVersion ?? 'not recorded'}`,
    `  source:        ${group.source}`,
    ...Object.entries(group.description ?? {}).map(([lang, text]) => `  about (${lang}):    ${text}`),
    `  illustrative:  ${group.illustrative ? 'yes: simulated, never for selection decisions' : 'no'}`,
    `  active:        ${group.active ? 'yes, for its instrument' : 'no'}`,
    ...makeUp(group.sample),
    '',
    'Scales (raw score: the item mean)',
    header,
    ...instrument.scales.filter((s) => group.table.scales[s.id]).map((s) => row(s.name.en, group.table.scales[s.id]!, instrument.responseScale)),
  ];
  const competences = model.competences.filter((c) => group.table.competences[c.code]);
  if (competences.length > 0)
    lines.push(
      '',
      'Competences (reliability: Mosier, of the weighted scales)',
      header,
      ...competences.map((c) => row(c.name.en, group.table.competences[c.code]!, instrument.responseScale)),
    );
  const form = publishedForm(group, instrument);
  lines.push(...(form.length ? ['', ...form] : []));
  lines.push('', 'Stens reachable: from the lowest to the highest raw score the response scale allows, against this group.');
  lines.push('', ...genderDifferences(group.sample, instrument));
  lines.push('', ...carelessSheet(group.table, instrument));
  const known = Object.values(group.table.scales).some((n) => n.reliability);
  lines.push(
    '',
    known
      ? 'SEM: the standard error of measurement; a 90% band around a sten is ±1.645 SEMs in stens, within the stens reachable (docs/PSYCHOMETRICS.md).'
      : 'Precision unknown: this group carries no reliability (imported from a version 1 norm file, or built without item answers).',
  );
  return lines.join('\n');
}

/** A shortened form against the published one: per scale its items there and here, and r of the two scores (content/norms/build-spi.sh). */
function publishedForm(group: NormGroup, instrument: Instrument): string[] {
  const form = instrument.publishedForm;
  if (!form) return [];
  const title = `Form: ${instrument.items.length} of the ${form.items} items of the published form (${form.source}, ${form.scales} scales)`;
  // The figures describe the content version loaded now; a group of another version had other items.
  if (group.contentVersion !== instrument.version)
    return [
      title,
      `  not shown: this group was built under content version ${group.contentVersion ?? 'not recorded'}, the figures are for ${instrument.version}`,
    ];
  const rows = instrument.scales.map((s) => {
    const items = instrument.items.filter((i) => itemKeys(i).some((k) => k.scale === s.id)).length;
    const r = s.published ? `${pad(`${items} of ${s.published.items}`, 10)} ${s.published.r.toFixed(3)}` : `${items}`;
    return `  ${pad(s.name.en, 28)} ${r}`;
  });
  return [
    title,
    `  ${pad('', 28)} ${pad('items', 10)} r with the published score (in ${form.sampleSize.toLocaleString('en')} adults of ${form.source.split('::')[0]})`,
    ...rows,
    ...form.leftOut.map((l) => `  left out: ${l.key} (${l.items} items)`),
  ];
}

const n0 = (x: number) => x.toLocaleString('en');
const share = (high: number | null, n: number) => (high !== null && n > 0 ? `${((100 * high) / n).toFixed(1)}%` : '-');

/** Who was considered and left out, and the gender and age make-up of the members used. */
function makeUp(sample: NormSampleAccount | undefined): string[] {
  if (!sample) return ['  exclusions:    not recorded', '  gender:        not recorded', '  age:           not recorded'];
  const reasons = Object.entries(sample.excluded.reasons).map(([why, n]) => `${n0(n)} ${why}`);
  const g = sample.gender;
  const a = sample.age;
  return [
    `  exclusions:    ${n0(sample.excluded.total)} of ${n0(sample.considered)} left out${reasons.length ? ` (${reasons.join(', ')}; a member with several flags counts under each)` : ''}`,
    `  gender:        ${g ? `${n0(g.male)} male, ${n0(g.female)} female, ${n0(g.neutral)} neutral, ${n0(g.unknown)} unknown` : 'not recorded'}`,
    `  age:           ${
      a
        ? `${a.min} to ${a.max}, median ${a.median}; ${Object.entries(a.bands)
            .map(([band, n]) => `${band}: ${n0(n)}`)
            .join(', ')}${a.unknown ? `; ${n0(a.unknown)} unknown` : ''}`
        : 'not recorded'
    }`,
  ];
}

/** Per scale, women against men: Cohen's d with its 95% interval, and the four-fifths ratios at sten 7 or more and 4 or less. */
function genderDifferences(sample: NormSampleAccount | undefined, instrument: Instrument): string[] {
  const title = `Gender differences (d: female minus male, in pooled SDs, with its 95% interval; ratio: the lower share over the higher, at sten ${HIGH_STEN}+ and ${LOW_STEN}-)`;
  if (!sample?.genderDifferences) return [title, `  not recorded: ${sample ? 'the sample has no gender' : 'this group was stored without its sample account'}`];
  const diffs = sample.genderDifferences;
  const [hi, lo] = [`${HIGH_STEN}+`, `${LOW_STEN}-`];
  const head = `  ${pad('', 28)} ${pad('n male', 7)} ${pad('n female', 9)} ${pad('d', 6)} ${pad('95% interval', 15)} ${pad(`male ${hi}`, 8)} ${pad(`female ${hi}`, 10)} ${pad(`ratio ${hi}`, 9)} ${pad(`male ${lo}`, 8)} ${pad(`female ${lo}`, 10)} ratio ${lo}`;
  const interval = (d: GenderDifferenceRecord) => (typeof d.dLower === 'number' && typeof d.dUpper === 'number' ? `[${f2(d.dLower)}, ${f2(d.dUpper)}]` : '-');
  const rows = instrument.scales
    .filter((s) => diffs[s.id])
    .map((s) => {
      const d = diffs[s.id]!;
      const low = (c: SubgroupCount) => share(c.low ?? null, c.n);
      return `  ${pad(s.name.en, 28)} ${pad(String(d.male.n), 7)} ${pad(String(d.female.n), 9)} ${pad(f2(d.d), 6)} ${pad(interval(d), 15)} ${pad(share(d.male.high, d.male.n), 8)} ${pad(share(d.female.high, d.female.n), 10)} ${pad(f2(d.fourFifths), 9)} ${pad(low(d.male), 8)} ${pad(low(d.female), 10)} ${f2(d.fourFifthsLow)}`;
    });
  const small = Object.values(diffs).some((d) => d.d === null && (d.male.n < MIN_SUBGROUP || d.female.n < MIN_SUBGROUP));
  // A group built before Assay recorded the interval and the low shares: what it has, and why the rest is missing.
  const older = Object.values(diffs).some((d) => d.d !== null && d.dLower === undefined && d.fourFifthsLow === undefined);
  return [
    title,
    head,
    ...rows,
    ...(small ? [`  -: fewer than ${MIN_SUBGROUP} of a gender, or no spread: no difference is given.`] : []),
    ...(older ? [`  not recorded: the interval and the shares at sten ${LOW_STEN}-; this group was built before Assay recorded them.`] : []),
    "  A ratio below 0.80 is the Uniform Guidelines' sign of adverse impact: a cut there screens out one gender more than the other (docs/PSYCHOMETRICS.md).",
  ];
}
