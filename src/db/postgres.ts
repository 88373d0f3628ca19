import pg from 'pg';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import type { DB } from './schema.js';
import { PgListener } from './pg-listener.js';
import { prepareMarkedStatements } from './pg-prepared.js';
import { run } from './prepared.js';
import type { WriteObserver } from './sqlite-writer.js';
import { CREDENTIALS_CHANNEL, type Store } from './store.js';
import { StoreCaches } from './store-caches.js';

/** Idle time before a PostgreSQL connection's first keepalive probe. */
const PG_KEEPALIVE_IDLE_MS = 10_000;

// COUNT(*) and BIGINT come back as strings by default; every number Assay stores fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function openPostgres(
  url: string,
  poolSize: number,
  credentialsFlushMs: number,
  onPoolError: (err: Error) => void,
  observe: WriteObserver | undefined,
): Store {
  const poolOf = (max: number) => {
    // TCP keepalive: a connection whose server or network went away without a reset (a failover, a
    // NAT that dropped it while idle) is otherwise never found dead. A query whose answer never
    // comes waits for good, and so does the LISTEN connection, which only waits: notifications
    // stop and callers rely on their polls. Unanswered probes end it: the query fails, the pool
    // drops the connection, and the listener connects again.
    const p = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: PG_KEEPALIVE_IDLE_MS,
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    p.on('error', onPoolError);
    return p;
  };
  const pool = poolOf(poolSize);
  prepareMarkedStatements(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // LISTEN holds its connection for good. Taken from the queries' pool, it left them one fewer
  // than DATABASE_POOL_SIZE, and with a size of 1 none: the start waited, then failed.
  const listenPool = poolOf(1);
  const listener = new PgListener(listenPool);
  const executeAll = timed(observe, ({ queries, when }: { queries: ReadonlyArray<CompiledQuery<unknown>>; when: (() => boolean) | undefined }) =>
    db.transaction().execute(async (trx) => {
      if (when && !when()) return undefined;
      const results = [];
      for (const query of queries) results.push(await run(trx, query));
      return results;
    }),
  );
  let version = 0;
  const bump = () => void version++;
  listener.on(CREDENTIALS_CHANNEL, bump);
  // NOTIFY is fast but not guaranteed (the LISTEN connection may be down): a floor on staleness.
  // Credential caches are dropped at least every AUTH_CACHE_FLUSH_MS, whatever NOTIFY does.
  const floor = setInterval(bump, credentialsFlushMs);
  floor.unref();
  return {
    dialect: 'postgres',
    db,
    write: timed(observe, (fn) => db.transaction().execute(fn)),
    execute: timed(observe, (query) => run(db, query)),
    executeAll: (queries, when) => executeAll({ queries, when }),
    backgroundRead: async (query) => (await db.executeQuery(query)).rows,
    async ping() {
      await db.selectFrom('tenants').select('id').limit(1).execute();
    },
    async close() {
      clearInterval(floor);
      await listener.close();
      await listenPool.end();
      await db.destroy();
    },
    credentialsVersion: () => version,
    credentialsChanged: bump,
    summariesVersion: () => undefined,
    listen: (channel, handler) => listener.on(channel, handler),
    scrub: async () => {},
    compact: async () => false,
    caches: new StoreCaches(),
  };
}

/** On PostgreSQL every write is its own commit: a batch of one, timed from the call. */
function timed<A, R>(observe: WriteObserver | undefined, fn: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  if (!observe) return fn;
  return async (arg) => {
    const at = performance.now();
    const result = await fn(arg);
    observe(1, (performance.now() - at) / 1000);
    return result;
  };
}
