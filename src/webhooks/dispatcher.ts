import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Metrics } from '../ops/metrics.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Store } from '../db/database.js';
import { OutboxLoop } from '../platform/outbox-loop.js';
import {
  claimAttempts,
  claimedRows,
  isDelivered,
  markAbandoned,
  NOTIFY_CHANNEL,
  pendingTenants,
  recordAttempt,
  TENANTS_PER_WALK,
  type ClaimedAttempt,
} from './outbox-store.js';
import { promoteDue } from './retry-store.js';
import { shareOut, TenantWalk } from './share.js';
import { webhookAuthorization, webhookSignature } from './request-credentials.js';
import { WebhookClient, type Attempt } from './client.js';
import type { Resolver } from './dns.js';

// A claim older than the timeout plus this margin belongs to a process that is gone.
const ABANDON_MARGIN_MS = 60_000;

/**
 * Sends each completion's webhook once. A completion in this process hands its attempt over
 * already claimed (`completeWith`); anything queued pending (redeliveries, completions while
 * this dispatcher or the tenant's share is full) is claimed when a wake comes: in this process
 * directly, across PostgreSQL instances by LISTEN/NOTIFY, and from a poll as a fallback. The poll
 * also marks deliveries abandoned by crashed processes as unknown.
 *
 * Slots (`WEBHOOK_MAX_IN_FLIGHT`, attempts this process makes at once) are shared out by
 * tenant: one tenant holds at most half of them. A tenant whose receivers never answer holds its
 * half for the webhook timeout each; the other half stays for every other tenant. Slots are
 * taken before the work that may fill them (a hand-off's completion, a claim) and given back for
 * what it did not fill, so racing hand-offs and claims never hold more than either bound.
 */
export class Dispatcher {
  readonly #id = randomUUID();
  readonly #store: Store;
  readonly #box: SecretBox;
  readonly #config: Config;
  readonly #log: FastifyBaseLogger;
  readonly #client: WebhookClient;
  readonly #metrics: Metrics | undefined;
  readonly #slots: number;
  readonly #share: number;
  readonly #loop: OutboxLoop;
  // Slots taken, in all and by tenant: attempts in flight and slots held for ones being claimed.
  #taken = 0;
  readonly #takenBy = new Map<string, number>();
  // Whether the last look at the waiting tenants left one under its share short of slots.
  #short = false;
  readonly #walk = new TenantWalk((options) => pendingTenants(this.#store, { ...options, cap: this.#share }), TENANTS_PER_WALK);

  constructor(store: Store, box: SecretBox, config: Config, log: FastifyBaseLogger, options: { resolver?: Resolver; metrics?: Metrics } = {}) {
    const { resolver, metrics } = options;
    this.#metrics = metrics;
    this.#store = store;
    this.#box = box;
    this.#config = config;
    this.#slots = config.webhook.maxInFlight;
    this.#share = Math.max(1, Math.floor(this.#slots / 2));
    this.#log = log.child({ component: 'webhooks' });
    this.#client = new WebhookClient({ ...config.webhook, ...(resolver ? { resolver } : {}) });
    this.#loop = new OutboxLoop({
      dialect: store.dialect,
      pollIntervalMs: config.webhook.pollIntervalMs,
      staleCutoff: () => this.#staleCutoff(),
      sweep: (cutoff) => this.#abandon(cutoff),
      pass: () => this.#pass(),
      log: this.#log,
      pausedMessage: 'webhook dispatch paused; the poll will retry claiming',
    });
  }

  async start(): Promise<void> {
    // On PostgreSQL a completion on any instance wakes every dispatcher: listening before the first
    // look, so none committed meanwhile waits for the poll; heard only once the start sweep is done.
    this.#store.listen(NOTIFY_CHANNEL, () => {
      if (this.#loop.started) this.wake();
    });
    await this.#loop.start();
  }

  /** Looks at the outbox finished, attempts under way, and whether a stop has begun (tests wait on these before saying what did not happen). */
  get activity(): { passes: number; inFlight: number; stopping: boolean } {
    return { passes: this.#loop.passes, inFlight: this.#loop.inFlight, stopping: this.#loop.stopped };
  }

  wake(): void {
    this.#loop.wake();
  }

  /**
   * Runs a completion's transaction with this dispatcher as `claimer` when it has a slot for one
   * more of `tenantId`'s attempts, and sends the attempt the completion queued once it has
   * committed. That saves the separate claim's commit, the larger part of completion-to-webhook
   * latency under load. A crash between the commit and the POST leaves the attempt 'sending',
   * later marked unknown, exactly as a crash between a claim and its POST does. Without a slot
   * (or before start, or after stop) the attempt is queued pending and a wake claims it.
   */
  completeWith<T extends { outcome: string; attemptId?: string }>(tenantId: string, complete: (claimer: string | undefined) => Promise<T>): Promise<T> {
    // While a tenant waits short of slots, a hand-off would take the slot it waits for: the claim decides instead.
    if (!this.#loop.started || this.#loop.stopped || this.#short || this.#freeSlotsFor(tenantId) === 0) {
      // Queued with every slot taken, this attempt waits for one another tenant holds.
      if (this.#taken >= this.#slots) this.#short = true;
      return complete(undefined).then((r) => {
        if (r.attemptId) this.wake();
        return r;
      });
    }
    this.#take(tenantId, 1);
    const done = complete(this.#id);
    const attempt = done.then(
      (r) => (r.attemptId ? this.#sendClaimed(r.attemptId) : undefined),
      () => undefined, // the completion failed and queued nothing; its caller hears of it
    );
    this.#loop.track(attempt, () => this.#give(tenantId, 1));
    return done;
  }

  /** How many more of the tenant's attempts this dispatcher may take now. */
  #freeSlotsFor(tenantId: string): number {
    return Math.max(0, Math.min(this.#slots - this.#taken, this.#share - (this.#takenBy.get(tenantId) ?? 0)));
  }

  #take(tenantId: string, n: number): void {
    this.#taken += n;
    this.#takenBy.set(tenantId, (this.#takenBy.get(tenantId) ?? 0) + n);
  }

  /**
   * Gives slots back. A slot an attempt held may be what a pending attempt waits for: a wake.
   * Not for slots a claim held and did not fill: on PostgreSQL those attempts may be another
   * instance's claim, still uncommitted, and claiming again at once would spin until it commits.
   */
  #give(tenantId: string, n: number, wake = true): void {
    if (n <= 0) return;
    this.#taken -= n;
    const left = (this.#takenBy.get(tenantId) ?? 0) - n;
    if (left > 0) this.#takenBy.set(tenantId, left);
    else this.#takenBy.delete(tenantId);
    if (wake && !this.#loop.stopped) this.wake();
  }

  /** Stops claiming, then waits for attempts in flight: each ends within the webhook timeout. */
  async stop(): Promise<void> {
    await this.#loop.stop();
    await this.#client.close();
  }

  #staleCutoff(): string {
    return new Date(Date.now() - this.#config.webhook.timeoutMs - ABANDON_MARGIN_MS).toISOString();
  }

  async #abandon(cutoff: string): Promise<void> {
    try {
      const n = await markAbandoned(this.#store, cutoff, this.#config.webhook.retryBaseMs);
      if (n > 0) {
        this.#log.warn({ count: n }, 'webhook deliveries abandoned mid-attempt marked unknown');
        this.#metrics?.webhooksAbandoned(n);
      }
    } catch (err) {
      this.#log.warn({ err }, 'could not sweep abandoned webhook deliveries');
    }
  }

  /** One look at the outbox: claims what the waiting tenants' shares allow, and starts sending it; what it got, it looks again. */
  async #pass(): Promise<boolean> {
    // Retries that fell due join the pending; a read first, so none due costs no write.
    await promoteDue(this.#store);
    // A read first: an idle outbox, or one whose waiting tenants all hold their share, costs no commit.
    // Also when every slot is taken: it says whether a tenant waits short, which stops hand-offs.
    const waiting = await this.#walk.next();
    const { wants, short } = shareOut(waiting, (t) => this.#takenBy.get(t) ?? 0, this.#slots - this.#taken, this.#share);
    this.#short = short;
    // Nothing to claim now; a wake that came during the read still runs the loop again.
    // Stopped during the read: what waits stays pending for the next start.
    if (wants.length === 0 || this.#loop.stopped) return false;
    for (const want of wants) this.#take(want.tenantId, want.limit);
    let rows: ClaimedAttempt[] = [];
    try {
      rows = await claimAttempts(this.#store, this.#id, wants);
    } finally {
      // Slots held for attempts the claim did not get (another instance did, or none were left).
      for (const want of wants) this.#give(want.tenantId, want.limit - rows.filter((r) => r.tenant_id === want.tenantId).length, false);
    }
    for (const row of rows) this.#loop.track(this.#deliverSafely(row), () => this.#give(row.tenant_id, 1));
    return rows.length > 0;
  }

  async #sendClaimed(attemptId: string): Promise<void> {
    let row: ClaimedAttempt | undefined;
    try {
      [row] = await claimedRows(this.#store, this.#id, [attemptId]);
    } catch (err) {
      this.#log.error({ err }, 'webhook attempt claimed but not read; the sweep will mark it unknown');
      return;
    }
    if (row) await this.#deliverSafely(row);
  }

  /**
   * An attempt's promise never rejects: nothing awaits it but the in-flight set, so a rejection
   * (a metric or log that throws) would be unhandled and end the process for every tenant.
   */
  #deliverSafely(row: ClaimedAttempt): Promise<void> {
    return this.#deliver(row).catch((err: unknown) => {
      this.#log.error({ err, analysis: row.analysis_id.slice(0, 6) }, 'webhook attempt ended in an unexpected error');
    });
  }

  async #deliver(row: ClaimedAttempt): Promise<void> {
    const attemptedAt = new Date().toISOString();
    let attempt: Attempt;
    try {
      if (row.webhook_style === 'patch') attempt = await this.#client.patch(row.webhook_url, webhookAuthorization(this.#box, row));
      else {
        const body = JSON.stringify({ Analysis_Id: row.analysis_id, External_Id: row.external_id });
        attempt = await this.#client.post(row.webhook_url, body, webhookAuthorization(this.#box, row), webhookSignature(this.#box, row, body));
      }
    } catch (err) {
      // Only reading the secrets can throw here: instances sharing a database need one ENCRYPTION_KEY.
      this.#log.warn({ err, analysis: row.analysis_id.slice(0, 6) }, 'webhook not sent: a secret could not be decrypted');
      attempt = { status: null, error: 'a webhook secret could not be decrypted with this server key', durationMs: 0 };
    }
    this.#log.info(
      { analysis: row.analysis_id.slice(0, 6), status: attempt.status, error: attempt.error, detail: attempt.detail, ms: attempt.durationMs },
      'webhook attempt',
    );
    try {
      await recordAttempt(this.#store, row.id, this.#id, { attemptedAt, ...attempt }, this.#config.webhook.retryBaseMs);
    } catch (err) {
      this.#log.error({ err, analysis: row.analysis_id.slice(0, 6) }, 'webhook attempt made but not recorded');
    }
    this.#metrics?.webhookAttempt(row.kind, isDelivered(attempt), attempt.durationMs / 1000, (Date.now() - Date.parse(row.created_at)) / 1000);
  }
}
