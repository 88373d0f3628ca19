import type { Command } from 'commander';
import { provisionKey } from '../provision.js';
import { listKeys, revokeKey } from '../store/credentials.js';
import { CliError, print, table, tenantId, withStore } from './shared.js';

export function keyCommands(program: Command): void {
  const key = program.command('key').description('API keys: each links a tenant to one portal domain');

  key
    .command('create')
    .description('create an API key for a tenant; prints it once')
    .requiredOption('--tenant <tenant>', 'tenant id or name')
    .requiredOption('--portal-domain <url>', 'origin the AssessmentUrls of this key use')
    .option('--json', 'print one JSON object')
    .action(async (opts: { tenant: string; portalDomain: string; json?: boolean }) => {
      const k = await withStore(async (store) => provisionKey(store, await tenantId(store, opts.tenant), opts.portalDomain));
      print(!!opts.json, k, [`Created API key ${k.apiKeyId}. It is shown once:`, `  api key:       ${k.apiKey}`, `  portal domain: ${k.portalDomain}`].join('\n'));
    });

  key
    .command('list')
    .description('list API keys (prefix only; keys are stored hashed)')
    .option('--tenant <tenant>', 'only this tenant (id or name)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; json?: boolean }) => {
      const rows = await withStore(async (store) => listKeys(store, opts.tenant ? await tenantId(store, opts.tenant) : undefined));
      print(!!opts.json, rows, table(rows));
    });

  key
    .command('revoke')
    .description('revoke an API key at once, by id or visible prefix')
    .argument('<key>', 'key id or prefix (see key list)')
    .option('--json', 'print JSON')
    .action(async (idOrPrefix: string, opts: { json?: boolean }) => {
      const outcome = await withStore((store) => revokeKey(store, idOrPrefix));
      if (outcome === 'not-found') throw new CliError(`No active key with id or prefix "${idOrPrefix}"`);
      if (outcome === 'ambiguous') throw new CliError(`Prefix "${idOrPrefix}" matches several keys; use the key id`);
      print(!!opts.json, { revoked: idOrPrefix }, `Revoked ${idOrPrefix}`);
    });
}
