import type { Command } from 'commander';
import { provisionTenant } from '../tenancy/provision.js';
import { listTenants, setRetentionDays } from '../tenancy/credentials-store.js';
import { CliError, print, table, tenantId, withStore } from './shared.js';

export function tenantCommands(program: Command): void {
  const tenant = program.command('tenant').description('tenants: a customer with its API users and keys');

  tenant
    .command('create')
    .description('create a tenant with one API user and one API key; prints the secrets once')
    .requiredOption('--name <name>', 'tenant name, unique')
    .requiredOption('--portal-domain <url>', 'origin the AssessmentUrls of this key use, e.g. https://assess.example.com')
    .option('--username <username>', 'API username (default: derived from the name)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { name: string; portalDomain: string; username?: string; json?: boolean }) => {
      const c = await withStore((store) => provisionTenant(store, opts.name, opts.portalDomain, opts.username));
      print(
        !!opts.json,
        c,
        [
          `Created tenant "${c.tenant}" (${c.tenantId}). The password and API key are shown once:`,
          `  username:      ${c.username}`,
          `  password:      ${c.password}`,
          `  api key:       ${c.apiKey}`,
          `  portal domain: ${c.portalDomain}`,
        ].join('\n'),
      );
    });

  tenant
    .command('list')
    .description('list tenants')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = (await withStore((store) => listTenants(store))).map((t) => ({
        id: t.id,
        name: t.name,
        retentionDays: t.retention_days,
        createdAt: t.created_at,
      }));
      print(!!opts.json, rows, table(rows));
    });

  tenant
    .command('set')
    .description("change a tenant's settings")
    .requiredOption('--tenant <tenant>', 'tenant id or name')
    .requiredOption('--retention-days <days>', 'keep personal data this many days after the last assessment closed, or "default" for RETENTION_DAYS')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant: string; retentionDays: string; json?: boolean }) => {
      const days = opts.retentionDays === 'default' ? null : Number(opts.retentionDays);
      if (days !== null && (!Number.isInteger(days) || days < 0 || days > 36_500))
        throw new CliError('--retention-days must be a whole number from 0 to 36500, or "default"');
      await withStore(async (store) => setRetentionDays(store, await tenantId(store, opts.tenant), days));
      print(!!opts.json, { tenant: opts.tenant, retentionDays: days }, `Retention of ${opts.tenant}: ${days === null ? 'RETENTION_DAYS' : `${days} days`}`);
    });
}
