import type { Command } from 'commander';
import { portalSettings, updatePortalSettings, type PortalSettings } from '../store/portal-settings.js';
import { CliError, portalKey, print, withStore } from './shared.js';

function onOff(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (/^(on|true|yes)$/i.test(value)) return 1;
  if (/^(off|false|no)$/i.test(value)) return 0;
  throw new CliError(`${option} must be on or off, got "${value}"`);
}

function shown(apiKeyId: string, portalDomain: string, s: PortalSettings) {
  return { apiKeyId, portalDomain, candidateFeedback: s.candidate_feedback === 1, candidateRelease: s.candidate_release === 1 };
}

function text(p: ReturnType<typeof shown>): string {
  const yes = (b: boolean) => (b ? 'on' : 'off');
  return [`Portal ${p.portalDomain} (key ${p.apiKeyId})`, `  candidate feedback: ${yes(p.candidateFeedback)}`, `  candidate release:  ${yes(p.candidateRelease)}`].join('\n');
}

export function portalCommands(program: Command): void {
  const portal = program.command('portal').description('portals: what a candidate sees on an API key\'s portal domain');

  portal
    .command('set')
    .description('change a portal\'s settings; the ones not given stay as they are')
    .option('--portal-domain <url>', 'the portal, by its domain')
    .option('--key <key>', 'the portal, by its API key id or prefix')
    .option('--candidate-feedback <on|off>', 'after finishing, show the candidate a short summary of their profile')
    .option('--candidate-release <on|off>', 'withhold scores until the candidate agrees to share them (shows the summary first)')
    .option('--json', 'print JSON')
    .action(async (opts: { portalDomain?: string; key?: string; candidateFeedback?: string; candidateRelease?: string; json?: boolean }) => {
      const changes: Partial<PortalSettings> = {};
      const feedback = onOff(opts.candidateFeedback, '--candidate-feedback');
      const release = onOff(opts.candidateRelease, '--candidate-release');
      if (feedback !== undefined) changes.candidate_feedback = feedback;
      if (release !== undefined) changes.candidate_release = release;
      const out = await withStore(async (store) => {
        const key = await portalKey(store, opts);
        return shown(key.id, key.portal_domain, await updatePortalSettings(store, key.id, changes));
      });
      print(!!opts.json, out, text(out));
    });

  portal
    .command('show')
    .description('show a portal\'s settings')
    .option('--portal-domain <url>', 'the portal, by its domain')
    .option('--key <key>', 'the portal, by its API key id or prefix')
    .option('--json', 'print JSON')
    .action(async (opts: { portalDomain?: string; key?: string; json?: boolean }) => {
      const out = await withStore(async (store) => {
        const key = await portalKey(store, opts);
        return shown(key.id, key.portal_domain, await portalSettings(store.db, key.id));
      });
      print(!!opts.json, out, text(out));
    });
}
