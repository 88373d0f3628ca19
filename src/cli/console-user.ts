import type { Command } from 'commander';
import { publicOrigin } from '../config.js';
import { createConsoleUser, disableConsoleUserByEmail, listConsoleUsers, resetConsoleUser, type IssuedLink } from '../tenancy/console-users.js';
import { print, table, tenantId, withStore } from './shared.js';

function linkText(verb: string, link: IssuedLink): string {
  return [`${verb} ${link.email} (${link.role}). Send them this link to set their password; it works once, within 24 hours:`, `  ${link.setPasswordUrl}`].join(
    '\n',
  );
}

export function consoleUserCommands(program: Command): void {
  const cmd = program.command('console-user').description("the console's people: who signs in at /console, in which tenant and role");

  cmd
    .command('create')
    .description('create a console user; prints a one-time link to set the password')
    .requiredOption('--tenant <tenant>', 'tenant id or name')
    .requiredOption('--email <email>', 'their e-mail address, unique across the system')
    .requiredOption('--role <role>', 'admin, recruiter or viewer')
    .option('--json', 'print one JSON object: email, role, setPasswordUrl')
    .action(async (opts: { tenant: string; email: string; role: string; json?: boolean }) => {
      const link = await withStore(async (store, config) =>
        createConsoleUser(store, await tenantId(store, opts.tenant), opts.email, opts.role, publicOrigin(config, config.port)),
      );
      print(!!opts.json, link, linkText('Created', link));
    });

  cmd
    .command('list')
    .description('list console users')
    .option('--tenant <tenant>', 'only this tenant (id or name)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; json?: boolean }) => {
      const users = await withStore(async (store) => listConsoleUsers(store, opts.tenant ? await tenantId(store, opts.tenant) : undefined));
      const rows = users.map((u) => ({
        email: u.email,
        tenant: u.tenant,
        role: u.role,
        passwordSet: u.password_hash !== null,
        disabled: u.disabled_at !== null,
        createdAt: u.created_at,
      }));
      print(!!opts.json, rows, table(rows));
    });

  cmd
    .command('disable')
    .description('disable a console user; their sessions end at once (reset, then the link, enables them again)')
    .requiredOption('--email <email>', 'their e-mail address')
    .option('--json', 'print JSON')
    .action(async (opts: { email: string; json?: boolean }) => {
      const user = await withStore((store) => disableConsoleUserByEmail(store, opts.email));
      print(!!opts.json, { email: user.email, disabled: true }, `Disabled ${user.email}; their sessions have ended`);
    });

  cmd
    .command('reset')
    .description('a new one-time link to set the password; earlier links stop working')
    .requiredOption('--email <email>', 'their e-mail address')
    .option('--json', 'print one JSON object: email, role, setPasswordUrl')
    .action(async (opts: { email: string; json?: boolean }) => {
      const link = await withStore(async (store, config) => resetConsoleUser(store, opts.email, publicOrigin(config, config.port)));
      print(!!opts.json, link, linkText('New link for', link));
    });
}
