import type { Config } from '../config.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';
import type { WriteObserver } from './sqlite-writer.js';
import type { Store } from './store.js';

export type { Dialect } from './dialect.js';
export { CREDENTIALS_CHANNEL, type Store } from './store.js';
export { openSqliteFile, VERSION_MAX_AGE_MS } from './sqlite.js';

export interface OpenOptions {
  /** A long-running server (rather than a CLI command): SQLite gets its checkpoint and reader threads. */
  serving?: boolean;
  onPoolError?: (err: Error) => void;
  /** Told of every durable commit (metrics). */
  onDurableWrite?: WriteObserver;
}

export function openStore(database: Config['database'], options: OpenOptions = {}): Store {
  return database.kind === 'sqlite'
    ? openSqlite(database.path, options.serving ?? false, options.onDurableWrite)
    : openPostgres(database.url, database.poolSize, database.credentialsFlushMs, options.onPoolError ?? (() => {}), options.onDurableWrite);
}
