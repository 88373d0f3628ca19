import type { Command } from 'commander';
import { ASSESSMENT_TYPES, type AssessmentTypeNumber } from '../assessments/rules.js';
import { listNormGroups } from '../measurement/norms-store.js';
import { print, table, withStore } from './shared.js';

/** `norms list`: the norm groups, which is active, and how many portals chose each. */
export function normsListCommand(norms: Command): void {
  norms
    .command('list')
    .description('list norm groups: which is active per instrument, and how many portals chose each')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await withStore((store) => listNormGroups(store));
      const shown = rows.map((r) => ({
        id: r.id,
        name: r.name,
        instrument: ASSESSMENT_TYPES[r.assessment_type as AssessmentTypeNumber] ?? String(r.assessment_type),
        sampleSize: r.sample_size,
        collectedFrom: r.collected_from,
        collectedTo: r.collected_to,
        illustrative: r.illustrative === 1,
        active: r.active === 1,
        portals: Number(r.portals ?? 0),
      }));
      print(!!opts.json, shown, table(shown));
    });
}
