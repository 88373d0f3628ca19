import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { BackupError, backupSqlite, restoreSqlite } from '../ops/backup.js';
import { CliError, print } from './shared.js';

const POSTGRES =
  'DATABASE_URL is PostgreSQL: back it up with pg_dump, or with base backups and WAL archiving for point-in-time recovery (docs/DEPLOYMENT.md, Backups)';

/** BackupError is the operator's to fix: shown as a message, not a stack. */
async function userFacing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof BackupError) throw new CliError(error.message);
    throw error;
  }
}

export function backupCommands(program: Command): void {
  program
    .command('backup')
    .description('a consistent copy of the SQLite database, taken while the server keeps serving')
    .argument('<file>', 'the backup file to create (never overwritten)')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { json?: boolean }) => {
      const config = loadConfig();
      const database = config.database;
      if (database.kind !== 'sqlite') throw new CliError(POSTGRES);
      const summary = await userFacing(() => backupSqlite(database.path, resolve(file)));
      const key = config.encryptionKey ? 'ENCRYPTION_KEY' : join(config.dataDir, 'secret.key');
      print(
        !!opts.json,
        { ...summary, serverKey: key },
        [
          `Backed up ${summary.pages} pages (${summary.bytes} bytes) to ${summary.file}.`,
          `The server key is not in it: keep ${key} too, stored apart from the backup. Without it the`,
          'webhook passwords and signing secrets in the backup cannot be opened (restore --key).',
        ].join('\n'),
      );
    });

  program
    .command('restore')
    .description('restore a backup into an empty data directory (DATA_DIR / DATABASE_URL), with its server key')
    .argument('<file>', 'a file made by assay backup')
    .option('--key <file>', 'the secret.key of the server the backup came from')
    .option('--without-key', 'restore although the key is lost: sealed webhook passwords and signing secrets will not open')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { key?: string; withoutKey?: boolean; json?: boolean }) => {
      const config = loadConfig();
      if (config.database.kind !== 'sqlite') throw new CliError(POSTGRES.replace('back it up with pg_dump', 'restore with pg_restore'));
      const target = config.database.path;
      const summary = await userFacing(() =>
        restoreSqlite(resolve(file), target, config.dataDir, {
          ...(opts.key ? { keyFile: resolve(opts.key) } : {}),
          ...(config.encryptionKey ? { configuredKey: config.encryptionKey } : {}),
          ...(opts.withoutKey ? { withoutKey: true } : {}),
        }),
      );
      print(
        !!opts.json,
        summary,
        `Restored ${summary.file} (${summary.bytes} bytes, ${summary.migrations.length} migrations); server key: ${summary.key}. Start the server with the same DATA_DIR and DATABASE_URL.`,
      );
    });
}
