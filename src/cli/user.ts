import type { Command } from 'commander';
import { checkUsername, provisionUser } from '../tenancy/provision.js';
import { hashPassword } from '../security/passwords.js';
import { newPassword } from '../security/tokens.js';
import { disableUser, listUsers, setPassword } from '../tenancy/credentials-store.js';
import { CliError, print, table, tenantId, withStore } from './shared.js';

export function userCommands(program: Command): void {
  const user = program.command('user').description('API users: the Basic credentials of a tenant');

  user
    .command('create')
    .description('create an API user for a tenant; prints the password once')
    .requiredOption('--tenant <tenant>', 'tenant id or name')
    .requiredOption('--username <username>', 'new username, unique across the system')
    .option('--json', 'print one JSON object')
    .action(async (opts: { tenant: string; username: string; json?: boolean }) => {
      const u = await withStore(async (store) => provisionUser(store, await tenantId(store, opts.tenant), opts.username));
      print(!!opts.json, u, [`Created user ${u.username}. The password is shown once:`, `  password: ${u.password}`].join('\n'));
    });

  user
    .command('reset-password')
    .description('give a user a new random password (and re-enable it); the old one stops working at once')
    .argument('<username>')
    .option('--json', 'print one JSON object')
    .action(async (username: string, opts: { json?: boolean }) => {
      const password = newPassword();
      const hash = await hashPassword(password);
      const ok = await withStore((store) => setPassword(store, checkUsername(username), hash));
      if (!ok) throw new CliError(`No user named "${username}"`);
      print(!!opts.json, { username, password }, [`New password for ${username}, shown once:`, `  password: ${password}`].join('\n'));
    });

  user
    .command('disable')
    .description('disable a user at once; reset-password enables it again')
    .argument('<username>')
    .option('--json', 'print JSON')
    .action(async (username: string, opts: { json?: boolean }) => {
      const ok = await withStore((store) => disableUser(store, username));
      if (!ok) throw new CliError(`No user named "${username}"`);
      print(!!opts.json, { username, disabled: true }, `Disabled ${username}`);
    });

  user
    .command('list')
    .description('list API users')
    .option('--tenant <tenant>', 'only this tenant (id or name)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; json?: boolean }) => {
      const users = await withStore(async (store) => listUsers(store, opts.tenant ? await tenantId(store, opts.tenant) : undefined));
      const rows = users.map((u) => ({ id: u.id, username: u.username, tenant: u.tenant, disabled: u.disabled === 1, createdAt: u.created_at }));
      print(!!opts.json, rows, table(rows));
    });
}
