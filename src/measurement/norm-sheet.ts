import type { Instrument } from './instruments/types.js';
import type { CompetenceModel, Norm, NormGroup } from './types.js';

const f2 = (x: number | undefined | null) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(2) : '-');
const pad = (s: string, n: number) => s.padEnd(n);

function row(label: string, n: Norm): string {
  const r = n.reliability;
  const interval = r?.alphaLower !== undefined && r.alphaUpper !== undefined ? `[${f2(r.alphaLower)}, ${f2(r.alphaUpper)}]` : '-';
  return `  ${pad(label, 28)} ${pad(f2(n.mean), 6)} ${pad(f2(n.sd), 6)} ${pad(f2(r?.alpha), 6)} ${pad(interval, 14)} ${pad(f2(r?.sem), 6)} ${f2(r?.semSten)}`;
}

/** A norm group's technical sheet as text: the sample, and each scale's and competence's figures with their precision. */
export function normSheet(group: NormGroup & { active: boolean }, instrument: Instrument, model: CompetenceModel): string {
  const dates = group.collectedFrom || group.collectedTo ? `${group.collectedFrom ?? '…'} to ${group.collectedTo ?? '…'}` : 'not recorded';
  const header = `  ${pad('', 28)} ${pad('mean', 6)} ${pad('SD', 6)} ${pad('alpha', 6)} ${pad('95% interval', 14)} ${pad('SEM', 6)} SEM in stens`;
  const lines = [
    `Norm group ${group.id} "${group.name}"`,
    `  instrument:    ${instrument.code} (${instrument.name.en})`,
    `  sample:        N = ${group.sampleSize}, collected ${dates}`,
    `  language:      ${group.language ?? 'not recorded'}; content version ${group.contentVersion ?? 'not recorded'}`,
    `  source:        ${group.source}`,
    `  illustrative:  ${group.illustrative ? 'yes: simulated, never for selection decisions' : 'no'}`,
    `  active:        ${group.active ? 'yes, for its instrument' : 'no'}`,
    '',
    'Scales (raw score: the item mean)',
    header,
    ...instrument.scales.filter((s) => group.table.scales[s.id]).map((s) => row(s.name.en, group.table.scales[s.id]!)),
  ];
  const competences = model.competences.filter((c) => group.table.competences[c.code]);
  if (competences.length > 0)
    lines.push(
      '',
      'Competences (reliability: Mosier, of the weighted scales)',
      header,
      ...competences.map((c) => row(c.name.en, group.table.competences[c.code]!)),
    );
  const known = Object.values(group.table.scales).some((n) => n.reliability);
  lines.push(
    '',
    known
      ? 'SEM: the standard error of measurement; a 90% band around a sten is ±1.645 SEMs in stens (docs/PSYCHOMETRICS.md).'
      : 'Precision unknown: this group carries no reliability (imported from a version 1 norm file, or built without item answers).',
  );
  return lines.join('\n');
}
