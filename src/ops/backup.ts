import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { privateDir, privateFile } from '../platform/private-files.js';
import { SecretBox } from '../security/secret-box.js';
import { MIGRATION_NAMES } from '../db/migrate.js';
import { Database } from '../db/sqlite-driver.js';
import { secretContext } from '../webhooks/signing.js';
import {
  appliedMigrations,
  migratedSchema,
  quickCheck,
  schemaEntries,
  sealedSigningSecret,
  sealedWebhookPassword,
  setJournalMode,
  waitWhileBusy,
  type SchemaEntry,
} from './backup-store.js';

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupSummary {
  file: string;
  bytes: number;
  pages: number;
  migrations: string[];
}

// sqlite3_backup_step's "all pages": the copy is one step under one read transaction, a
// consistent snapshot. Copied in several steps, every write the server commits in between would
// restart the backup from the first page, and under steady load it might never finish.
const ALL_PAGES = 0x7fffffff;

/**
 * An online backup of the SQLite file at `source` into `file`, with better-sqlite3's backup API,
 * while a server may keep writing. The copy is made self-contained (no -wal beside it) and checked
 * before this resolves. `file` must not exist, not even as a symlink: the backup is written in a
 * private folder beside it and linked into place, so an existing path is never written through.
 */
export async function backupSqlite(source: string, file: string): Promise<BackupSummary> {
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source}`);
  if (lstatSync(file, { throwIfNoEntry: false })) throw new BackupError(exists(file));
  if (!existsSync(dirname(file))) throw new BackupError(`The folder ${dirname(file)} does not exist`);
  // SQLite's backup writes by path (and makes a -journal beside it): into a folder only we can
  // enter, in the same file system so that link() can put the result in place.
  const work = mkdtempSync(join(dirname(file), '.assay-backup-'));
  try {
    const temp = join(work, 'backup.db');
    // Personal data and sealed secrets: owner-only from the first byte.
    closeSync(openSync(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600));
    const db = new Database(source, { fileMustExist: true });
    let pages = 0;
    try {
      waitWhileBusy(db);
      const progress = await db.backup(temp, { progress: () => ALL_PAGES });
      pages = progress.totalPages;
    } finally {
      db.close();
    }
    const copy = new Database(temp, { fileMustExist: true });
    let migrations: string[];
    try {
      // A single file that opens on its own: the backup leaves WAL mode's -wal and -shm behind.
      setJournalMode(copy, 'DELETE');
      migrations = check(copy, file);
    } finally {
      copy.close();
    }
    const bytes = statSync(temp).size;
    place(temp, file);
    return { file, bytes, pages, migrations };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const exists = (file: string) => `${file} exists; a backup never overwrites a file (nor writes through a link)`;

/** Puts `temp` at `file`, which must not exist: link() fails on any existing path, a symlink too. */
function place(temp: string, file: string): void {
  try {
    linkSync(temp, file);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new BackupError(exists(file));
    // A file system without hard links: an exclusive copy (O_CREAT | O_EXCL, which follows no
    // link), removed by libuv itself if it fails part way.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  try {
    copyFileSync(temp, file, constants.COPYFILE_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupError(exists(file));
    throw error;
  }
}

export interface RestoreOptions {
  /** The server key file that belongs with the backup (DATA_DIR/secret.key of the source). */
  keyFile?: string;
  /** ENCRYPTION_KEY, when the target server uses one. */
  configuredKey?: string;
  /** Restore although no key is given: sealed webhook passwords and secrets will not open. */
  withoutKey?: boolean;
}

/**
 * Restores a backup into `target` (the SQLite path of an empty data directory) and, when given,
 * the server key beside it. Refuses a target that holds data, a backup from a newer Assay, and a
 * key that does not open the backup's sealed secrets.
 */
export async function restoreSqlite(
  backup: string,
  target: string,
  dataDir: string,
  options: RestoreOptions = {},
): Promise<BackupSummary & { key: 'restored' | 'configured' | 'none' }> {
  if (!existsSync(backup)) throw new BackupError(`There is no backup at ${backup}`);
  for (const f of [target, `${target}-wal`]) {
    if (existsSync(f) && statSync(f).size > 0) throw new BackupError(`${f} already holds data; restore only into an empty data directory`);
  }
  if (options.keyFile && options.configuredKey)
    throw new BackupError('ENCRYPTION_KEY is set, and the server uses it rather than a secret.key file: leave out --key');
  const keyPath = join(dataDir, 'secret.key');
  const source = new Database(backup, { readonly: true, fileMustExist: true });
  let migrations: string[];
  let pages: number;
  try {
    migrations = check(source, backup);
    await sameSchemaAsMigrations(source, migrations, backup);
    const key = options.keyFile ? readKey(options.keyFile) : options.configuredKey ? Buffer.from(options.configuredKey, 'base64') : undefined;
    if (options.keyFile && existsSync(keyPath) && !readKey(keyPath).equals(key!)) {
      throw new BackupError(`${keyPath} exists and holds another key; restore only into an empty data directory`);
    }
    const sealed = sealedSample(source, migrations);
    if (sealed && key) {
      try {
        new SecretBox(key).open(sealed.value, sealed.context);
      } catch {
        throw new BackupError('That key does not open the secrets in this backup; give the secret.key (or ENCRYPTION_KEY) of the server it came from');
      }
    }
    if (sealed && !key && !options.withoutKey) {
      throw new BackupError(
        "The backup holds sealed webhook passwords or signing secrets: give --key FILE (the source server's secret.key) or set its ENCRYPTION_KEY, or --without-key to restore without them",
      );
    }
    privateDir(dataDir);
    privateFile(target);
    pages = (await source.backup(target, { progress: () => ALL_PAGES })).totalPages;
    if (options.keyFile) {
      privateFile(keyPath);
      writeFileSync(keyPath, key!.toString('base64') + '\n', { mode: 0o600 });
    }
  } finally {
    source.close();
  }
  const restored = new Database(target);
  try {
    setJournalMode(restored, 'WAL');
    check(restored, target);
  } finally {
    restored.close();
  }
  return {
    file: target,
    bytes: statSync(target).size,
    pages,
    migrations,
    key: options.keyFile ? 'restored' : options.configuredKey ? 'configured' : 'none',
  };
}

/** SQLite's own check, and that the file is an Assay database this version can open. */
function check(db: BetterSqlite3.Database, file: string): string[] {
  const result = quickCheck(db);
  if (result !== 'ok') throw new BackupError(`${file} is damaged: ${String(result)}`);
  let names: string[];
  try {
    names = appliedMigrations(db);
  } catch {
    throw new BackupError(`${file} is not an Assay database`);
  }
  const unknown = names.filter((n) => !MIGRATION_NAMES.includes(n));
  if (unknown.length > 0) throw new BackupError(`${file} was made by a newer Assay (migrations ${unknown.join(', ')}); restore it with that version`);
  return names;
}

/**
 * Refuses a backup whose tables, indexes, triggers or views are not exactly those this version's
 * migrations make, up to the backup's last one: an extra trigger could copy data aside that an
 * erasure then leaves behind. The reference is a fresh in-memory database, migrated here.
 */
async function sameSchemaAsMigrations(db: BetterSqlite3.Database, migrations: string[], file: string): Promise<void> {
  if (migrations.some((name, i) => MIGRATION_NAMES[i] !== name)) {
    throw new BackupError(`${file} has migrations out of order (${migrations.join(', ')}); it was not made by Assay`);
  }
  const want = schemaOf(await migratedSchema(migrations.at(-1)));
  const got = schemaOf(schemaEntries(db));
  const differences = [
    ...[...got.keys()].filter((k) => !want.has(k)).map((k) => `unexpected ${k}`),
    ...[...want.keys()].filter((k) => !got.has(k)).map((k) => `missing ${k}`),
    ...[...got.keys()].filter((k) => want.has(k) && want.get(k) !== got.get(k)).map((k) => `changed ${k}`),
  ];
  if (differences.length > 0) {
    throw new BackupError(`${file} does not have the schema Assay's migrations make, so it is not restored: ${differences.join('; ')}`);
  }
}

/** "type name on table" to the statement that made it, whitespace normalised. */
function schemaOf(rows: SchemaEntry[]): Map<string, string> {
  const normal = (sql: string | null) =>
    (sql ?? '')
      .replace(/\s+/g, ' ')
      .replace(/ ?([(),]) ?/g, '$1')
      .trim();
  return new Map(rows.map((r) => [`${r.type} ${r.name} on ${r.tbl_name}`, normal(r.sql)]));
}

function readKey(file: string): Buffer {
  let key: Buffer;
  try {
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  } catch (error) {
    throw new BackupError(`Cannot read the key file ${file}: ${(error as Error).message}`);
  }
  if (key.length !== 32) throw new BackupError(`${file} does not hold a 32-byte base64 key`);
  return key;
}

/** One sealed value in the backup and the context it was sealed with, to try a key on. */
function sealedSample(db: BetterSqlite3.Database, migrations: string[]): { value: string; context: string } | undefined {
  const password = sealedWebhookPassword(db);
  if (password) return { value: password.value, context: password.id };
  // Signing secrets came with this migration; an older backup has none.
  if (!migrations.includes('0006-webhook-log')) return undefined;
  const secret = sealedSigningSecret(db);
  return secret ? { value: secret.value, context: secretContext(secret.id) } : undefined;
}
