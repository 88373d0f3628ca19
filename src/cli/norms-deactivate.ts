import type { Command } from 'commander';
import { clearPortalNormGroup, deactivateNormDefault } from '../measurement/norms-store.js';
import { CliError, loadContent, portalKey, print, withStore } from './shared.js';

/** `norms deactivate`: clears an instrument's default group, or one portal's choice. */
export function normsDeactivateCommand(norms: Command): void {
  norms
    .command('deactivate')
    .description("clear an instrument's default group, or one portal's own choice; later completions then use the default, or no norms at all")
    .requiredOption('--instrument <type>', 'the instrument: 0 (TMA170), 1 (TMA312) or 2 (SPI)')
    .option('--portal-domain <url>', 'only clear the choice of the portal (API key) on this domain')
    .option('--key <key>', 'only clear the choice of this API key (id or prefix)')
    .option('--json', 'print JSON')
    .action(async (opts: { instrument: string; portalDomain?: string; key?: string; json?: boolean }) => {
      const type = Number(opts.instrument);
      const forPortal = opts.portalDomain !== undefined || opts.key !== undefined;
      const cleared = await withStore(async (store, config) => {
        if (!loadContent(config).instruments.has(type)) throw new CliError('--instrument must be 0 (TMA170), 1 (TMA312) or 2 (SPI)');
        return forPortal ? clearPortalNormGroup(store, (await portalKey(store, opts)).id, type) : deactivateNormDefault(store, type);
      });
      const what = forPortal ? "that portal's own choice" : 'the default group';
      print(
        !!opts.json,
        { instrument: type, portal: forPortal, cleared: cleared > 0 },
        cleared > 0
          ? `Cleared ${what} for instrument ${type}`
          : `Instrument ${type} had no ${forPortal ? 'choice of that portal' : 'default group'}: nothing changed`,
      );
    });
}
