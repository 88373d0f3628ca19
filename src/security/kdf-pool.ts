import { DomainError } from '../domain/errors.js';
import { Threads, type ThreadLimits } from '../platform/threads.js';

export interface KdfLimits extends ThreadLimits {
  /** Checks one client may have running or waiting at once; past that, 429. */
  perClient: number;
}

/**
 * Password checks on threads of their own. scrypt on libuv's pool (crypto.scrypt) would share
 * its four threads with the WAL's fdatasync, and a burst of logins would hold every durable
 * write behind it. Here the KDF never touches that pool, and its concurrency is capped twice:
 * per client, so one client cannot fill the queue, and globally, so the queue stays bounded.
 */
export class KdfPool {
  readonly #threads: Threads<{ password: string; stored?: string }, boolean | string>;
  readonly #limits: KdfLimits;
  readonly #perClient = new Map<string, number>();
  /** How many checks ran to a verdict: observable so tests can prove caches and limits work. */
  runs = 0;

  constructor(limits: KdfLimits) {
    this.#limits = limits;
    // Threads start at once and stay: starting one costs more than the check it would run.
    this.#threads = new Threads(new URL('./kdf-worker.js', import.meta.url), limits, {
      message: 'Too many password checks are waiting; try again shortly',
      retryAfterSeconds: 2,
    });
  }

  /** Checks waiting for a thread right now. */
  get queued(): number {
    return this.#threads.queued;
  }

  async verify(password: string, stored: string, client: string): Promise<boolean> {
    const ok = (await this.#run({ password, stored }, client)) === true;
    this.runs++;
    return ok;
  }

  /** A new hash of `password` (`passwords.ts`'s form), made on a KDF thread under the same limits as a check. */
  async hash(password: string, client: string): Promise<string> {
    const stored = await this.#run({ password }, client);
    if (typeof stored !== 'string') throw new Error('a KDF thread answered a hash with a verdict');
    return stored;
  }

  async #run(task: { password: string; stored?: string }, client: string): Promise<boolean | string> {
    const running = this.#perClient.get(client) ?? 0;
    if (running >= this.#limits.perClient) {
      throw new DomainError('TooManyRequests', 'Too many password checks from this client at once; try again shortly', { retryAfterSeconds: 1 });
    }
    this.#perClient.set(client, running + 1);
    try {
      return await this.#threads.run(task);
    } finally {
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left === 0) this.#perClient.delete(client);
      else this.#perClient.set(client, left);
    }
  }

  async close(): Promise<void> {
    await this.#threads.close();
  }
}
