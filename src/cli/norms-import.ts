import type { Command } from 'commander';
import { readContent } from '../measurement/load.js';
import { parseNormFile } from '../measurement/norm-groups.js';
import { insertNormGroup } from '../measurement/norms-store.js';
import { loadContent, print, withStore } from './shared.js';

/** `norms import`: a norm group from a norm file. */
export function normsImportCommand(norms: Command): void {
  norms
    .command('import')
    .description('import a norm group from a norm file (docs/RESULTS.md "Norm groups"); it starts inactive')
    .argument('<file>', 'a JSON file in the assay-norms/1 format')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { json?: boolean }) => {
      const out = await withStore(async (store, config) => {
        const { instruments, competences } = loadContent(config);
        const group = parseNormFile(readContent(file), instruments, competences);
        return { id: await insertNormGroup(store, group), name: group.name, sampleSize: group.sampleSize };
      });
      print(!!opts.json, out, `Imported norm group ${out.id} "${out.name}" (n = ${out.sampleSize}).\nActivate it with: bin/assay norms activate ${out.id}`);
    });
}
