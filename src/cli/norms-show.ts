import type { Command } from 'commander';
import { toNormFile } from '../measurement/norm-groups.js';
import { normSheet, reachableStensOf } from '../measurement/norm-sheet.js';
import { showNormGroup } from '../measurement/norms-store.js';
import { CliError, loadContent, print, withStore } from './shared.js';

/** `norms show`: a norm group's technical sheet. */
export function normsShowCommand(norms: Command): void {
  norms
    .command('show')
    .description("a norm group's technical sheet: its sample, and each scale's mean, SD, reliability and standard error of measurement")
    .argument('<id>', 'norm group id (see norms list)')
    .option('--json', 'print the group as a norm file, with its id and whether it is active')
    .action(async (id: string, opts: { json?: boolean }) => {
      const out = await withStore(async (store, config) => {
        const group = await showNormGroup(store, id);
        if (!group) throw new CliError(`No norm group "${id}"`);
        const { instruments, competences } = loadContent(config);
        const instrument = instruments.get(group.assessmentType)!;
        return {
          json: { id: group.id, active: group.active, ...toNormFile(group, instrument), reachableStens: reachableStensOf(group, instrument) },
          text: normSheet(group, instrument, competences),
        };
      });
      print(!!opts.json, out.json, out.text);
    });
}
