import type { FastifyBaseLogger } from 'fastify';
import { listTenants } from '../tenancy/credentials-store.js';
import type { Store } from '../db/database.js';
import { dueUnder, retentionCandidates } from './erasure-store.js';
import { eraseCandidate } from './erase.js';
import { sweepExpiredKeys } from '../idempotency/keys-store.js';

const BATCH = 100;

/**
 * Erases the personal data of candidates whose assessments all closed (completed, expired or
 * cancelled) longer ago than their tenant's retention. Safe on many instances at once: each
 * erasure checks again, in its own transaction, that the candidate is still there and still due.
 */
export async function sweepRetention(store: Store, defaultDays: number, now = Date.now()): Promise<number> {
  let erased = 0;
  for (const tenant of await listTenants(store)) {
    const days = tenant.retention_days ?? defaultDays;
    const cutoff = new Date(now - days * 86_400_000).toISOString();
    const due = dueUnder(days, now);
    for (;;) {
      const batch = await retentionCandidates(store, tenant.id, cutoff, BATCH);
      let progress = 0;
      for (const externalId of batch) {
        if (await eraseCandidate({ store }, externalId, { tenantId: tenant.id, erasedBy: 'retention', reason: 'retention' }, due)) progress++;
      }
      erased += progress;
      // Another instance took the rest, or there is nothing left: either way this tenant is done.
      if (batch.length < BATCH || progress === 0) break;
    }
  }
  return erased;
}

/**
 * Runs the sweep at start and then every `intervalMs`, never two at once in this process, and
 * after each sweep the compaction that follows erasures (`Store.compact`).
 */
export class RetentionSweeper {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly defaultDays: number,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), this.intervalMs);
    this.#timer.unref();
  }

  #tick(): void {
    this.#running ??= sweepRetention(this.store, this.defaultDays)
      .then((n) => {
        if (n > 0) this.log.info({ erased: n }, 'retention: personal data erased');
      })
      .catch((err: unknown) => this.log.warn({ err }, 'retention sweep failed; it runs again at the next interval'))
      // Idempotency-Keys are kept 24 hours (src/idempotency), on the same beat.
      .then(() => sweepExpiredKeys(this.store))
      .catch((err: unknown) => this.log.warn({ err }, 'idempotency key sweep failed; it runs again at the next interval'))
      .then(() => this.#compact())
      .finally(() => (this.#running = undefined));
  }

  /** Erasures by the API, the CLI or the sweep since the last time: the file is rewritten once. */
  async #compact(): Promise<void> {
    const started = performance.now();
    try {
      if (await this.store.compact()) this.log.info({ ms: Math.round(performance.now() - started) }, 'erasure: database file compacted');
    } catch (err) {
      this.log.warn({ err }, 'compaction after erasures failed; it is tried again after the next sweep');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}
