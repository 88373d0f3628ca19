import type { Command } from 'commander';
import { createGreenhouseKey, listGreenhouseKeys, revokeGreenhouseKey } from '../tenancy/greenhouse-keys-store.js';
import { newGreenhouseKey } from '../security/tokens.js';
import { CliError, portalKey, print, table, tenantId, withStore } from './shared.js';

/** `key greenhouse …`: the keys a customer pastes into Greenhouse, one portal each. */
export function greenhouseKeyCommands(key: Command): void {
  const gh = key.command('greenhouse').description('Greenhouse Assessment Partner keys: a customer pastes one into Greenhouse; it orders tests on one portal');

  gh.command('create')
    .description('issue a Greenhouse key for the portal of an API key; prints it once')
    .requiredOption('--key <api key>', 'API key id or prefix whose portal the tests are ordered on (see key list)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { key: string; json?: boolean }) => {
      const out = await withStore(async (store) => {
        const apiKey = await portalKey(store, { key: opts.key });
        const k = newGreenhouseKey();
        const id = await createGreenhouseKey(store, { tenantId: apiKey.tenant_id, apiKeyId: apiKey.id, prefix: k.prefix, hash: k.hash });
        return { greenhouseKeyId: id, greenhouseKey: k.key, portalDomain: apiKey.portal_domain };
      });
      print(
        !!opts.json,
        out,
        [
          `Created Greenhouse key ${out.greenhouseKeyId}. It is shown once:`,
          `  key:           ${out.greenhouseKey}`,
          `  portal domain: ${out.portalDomain}`,
          'The customer gives Greenhouse this key and the base URL https://<this server>/integrations/greenhouse/',
        ].join('\n'),
      );
    });

  gh.command('list')
    .description('list Greenhouse keys (prefix only; keys are stored hashed)')
    .option('--tenant <tenant>', 'only this tenant (id or name)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; json?: boolean }) => {
      const keys = await withStore(async (store) => listGreenhouseKeys(store, opts.tenant ? await tenantId(store, opts.tenant) : undefined));
      const rows = keys.map((k) => ({
        id: k.id,
        prefix: k.prefix,
        apiKey: k.api_key_prefix,
        portalDomain: k.portal_domain,
        revoked: k.revoked_at !== null,
        createdAt: k.created_at,
      }));
      print(!!opts.json, rows, table(rows));
    });

  gh.command('revoke')
    .description('revoke a Greenhouse key at once, by id or visible prefix')
    .argument('<key>', 'Greenhouse key id or prefix (see key greenhouse list)')
    .option('--json', 'print JSON')
    .action(async (idOrPrefix: string, opts: { json?: boolean }) => {
      const outcome = await withStore((store) => revokeGreenhouseKey(store, idOrPrefix));
      if (outcome === 'not-found') throw new CliError(`No active Greenhouse key with id or prefix "${idOrPrefix}"`);
      if (outcome === 'ambiguous') throw new CliError(`Prefix "${idOrPrefix}" matches several Greenhouse keys; use the id`);
      print(!!opts.json, { key: idOrPrefix, revoked: true }, `Revoked ${idOrPrefix}`);
    });
}
