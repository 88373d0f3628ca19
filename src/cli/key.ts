import type { Command } from 'commander';
import { provisionKey } from '../tenancy/provision.js';
import { listKeys, revokeKey } from '../tenancy/credentials-store.js';
import { greenhouseKeyCommands } from './greenhouse.js';
import { CliError, issueWebhookSecret, portalKey, print, table, tenantId, withStore } from './shared.js';

export function keyCommands(program: Command): void {
  const key = program.command('key').description('API keys: each links a tenant to one portal domain');
  greenhouseKeyCommands(key);

  key
    .command('create')
    .description('create an API key for a tenant; prints it once')
    .requiredOption('--tenant <tenant>', 'tenant id or name')
    .requiredOption('--portal-domain <url>', 'origin the AssessmentUrls of this key use')
    .option('--json', 'print one JSON object')
    .action(async (opts: { tenant: string; portalDomain: string; json?: boolean }) => {
      const k = await withStore(async (store) => provisionKey(store, await tenantId(store, opts.tenant), opts.portalDomain));
      print(
        !!opts.json,
        k,
        [`Created API key ${k.apiKeyId}. It is shown once:`, `  api key:       ${k.apiKey}`, `  portal domain: ${k.portalDomain}`].join('\n'),
      );
    });

  key
    .command('list')
    .description('list API keys (prefix only; keys are stored hashed)')
    .option('--tenant <tenant>', 'only this tenant (id or name)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; json?: boolean }) => {
      const keys = await withStore(async (store) => listKeys(store, opts.tenant ? await tenantId(store, opts.tenant) : undefined));
      const rows = keys.map((k) => ({
        id: k.id,
        prefix: k.prefix,
        tenant: k.tenant,
        portalDomain: k.portal_domain,
        revoked: k.revoked_at !== null,
        createdAt: k.created_at,
        revokedAt: k.revoked_at,
      }));
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
      print(!!opts.json, { key: idOrPrefix, revoked: true }, `Revoked ${idOrPrefix}`);
    });

  key
    .command('webhook-secret')
    .description("the secret that signs a portal's webhooks (Standard Webhooks)")
    .command('rotate')
    .description('a new signing secret, printed once; the old one keeps signing alongside it for the overlap')
    .argument('<key>', 'API key id or prefix (see key list)')
    .option('--overlap-hours <hours>', 'how long the old secret keeps signing too', '24')
    .option('--json', 'print one JSON object')
    .action(async (idOrPrefix: string, opts: { overlapHours: string; json?: boolean }) => {
      const hours = Number(opts.overlapHours);
      if (!Number.isFinite(hours) || hours < 0 || hours > 720) throw new CliError('--overlap-hours must be from 0 to 720');
      const out = await withStore(async (store, config) => {
        const apiKey = await portalKey(store, { key: idOrPrefix });
        const until = hours > 0 ? new Date(Date.now() + hours * 3_600_000).toISOString() : null;
        return { apiKeyId: apiKey.id, webhookSecret: await issueWebhookSecret(store, config, apiKey.id, until), previousValidUntil: until };
      });
      print(
        !!opts.json,
        out,
        [
          `New webhook signing secret for key ${out.apiKeyId}, shown once:`,
          `  ${out.webhookSecret}`,
          out.previousValidUntil ? `The previous secret also signs until ${out.previousValidUntil}.` : 'The previous secret no longer signs.',
        ].join('\n'),
      );
    });
}
