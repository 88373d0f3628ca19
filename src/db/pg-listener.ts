import type pg from 'pg';

/**
 * One dedicated PostgreSQL connection that LISTENs on behalf of the whole process, and comes
 * back by itself after the server restarts. Until it is back, callers rely on their polls.
 */
export class PgListener {
  readonly #pool: pg.Pool;
  readonly #handlers = new Map<string, Array<() => void>>();
  readonly #retryMs: number;
  #client: pg.PoolClient | undefined;
  #closed = false;
  #connecting: Promise<void> | undefined;

  constructor(pool: pg.Pool, retryMs = 1_000) {
    this.#pool = pool;
    this.#retryMs = retryMs;
  }

  on(channel: string, handler: () => void): void {
    const list = this.#handlers.get(channel) ?? [];
    list.push(handler);
    this.#handlers.set(channel, list);
    if (this.#client) void this.#client.query(`LISTEN ${channel}`).catch(() => {});
    else this.#connecting ??= this.#connect();
  }

  async #connect(): Promise<void> {
    try {
      const client = await this.#pool.connect();
      client.on('notification', (msg) => {
        for (const handler of this.#handlers.get(msg.channel) ?? []) handler();
      });
      client.on('error', () => this.#lost());
      for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${channel}`);
      if (this.#closed) {
        client.release(true);
        return;
      }
      this.#client = client;
      // Anything may have happened while no one was listening.
      for (const handlers of this.#handlers.values()) for (const h of handlers) h();
    } catch {
      this.#retry();
    } finally {
      this.#connecting = undefined;
    }
  }

  #lost(): void {
    this.#client?.release(true);
    this.#client = undefined;
    this.#retry();
  }

  #retry(): void {
    if (this.#closed) return;
    setTimeout(() => {
      if (!this.#closed && !this.#client) this.#connecting ??= this.#connect();
    }, this.#retryMs).unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#connecting;
    this.#client?.release(true);
    this.#client = undefined;
  }
}
