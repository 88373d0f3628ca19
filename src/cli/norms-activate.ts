import type { Command } from 'commander';
import { activateNormGroup, setPortalNormGroup } from '../measurement/norms-store.js';
import { CliError, portalKey, print, withStore } from './shared.js';

/** `norms activate`: a group as the default for its instrument, or as one portal's choice. */
export function normsActivateCommand(norms: Command): void {
  norms
    .command('activate')
    .description("make a group the default for its instrument, or one portal's choice; later completions use it, earlier results keep theirs")
    .argument('<id>', 'norm group id (see norms list)')
    .option('--portal-domain <url>', 'only for the portal (API key) on this domain')
    .option('--key <key>', 'only for this API key (id or prefix)')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { portalDomain?: string; key?: string; json?: boolean }) => {
      const forPortal = opts.portalDomain !== undefined || opts.key !== undefined;
      const done = await withStore(async (store) => {
        if (!forPortal) return activateNormGroup(store, id);
        return setPortalNormGroup(store, (await portalKey(store, opts)).id, id);
      });
      if (!done) throw new CliError(`No norm group "${id}"`);
      print(
        !!opts.json,
        { normGroupId: id, activated: true, portal: forPortal },
        forPortal ? `Norm group ${id} is now that portal's choice` : `Norm group ${id} is now the default for its instrument`,
      );
    });
}
