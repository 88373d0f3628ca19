import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { MailConfig } from '../config.js';
import type { Instruments } from '../measurement/instruments/load.js';
import type { Metrics } from '../ops/metrics.js';
import type { Store } from '../db/database.js';
import { portalLogo, portalSettings } from '../tenancy/portal-settings-store.js';
import type { CandidateCodes } from '../security/candidate-codes.js';
import { OutboxLoop } from '../platform/outbox-loop.js';
import { shareOut, TenantWalk } from '../webhooks/share.js';
import { MailMetrics, type MailOutcome } from './metrics.js';
import { claimDue, dueTenants, finish, releaseStale, stillClaimed, type ClaimedMail, type Ending } from './outbox-store.js';
import { decide, givenUp, retryDelayMs, tenantReply } from './rules.js';
import { Sender } from './sender.js';
import { sendsInFlight, type Send } from './sends.js';
import { mailSettings } from './settings-store.js';
import { renderMail } from './templates.js';
import { portalResumePath } from '../domain/portal-paths.js';

// Tenants with mail due looked at per walk; the next walk goes on from the last one.
const TENANTS_PER_WALK = 256;

// Logo types mail clients show inline; others (SVG, WebP) are left out and the name stands alone.
const INLINE_LOGO = new Set(['image/png', 'image/jpeg', 'image/gif']);

/**
 * Sends the mail outbox. Due messages (a new invitation, a reminder whose time came, a retry) are
 * claimed from the database when woken (a request queued one here) and on a poll every
 * MAIL_POLL_INTERVAL_MS, so a reminder goes out within about that long of falling due, on
 * whichever instance claims it first. A message claimed by a process that stopped mid-send is
 * released for another try by the poll.
 *
 * MAIL_MAX_IN_FLIGHT is shared out by tenant as the webhook dispatcher's slots are
 * (webhooks/share.ts): one tenant's messages take at most half, and a tenant sending none goes
 * before one that is, so one tenant's backlog never holds another's invitation back.
 */
export class Mailer {
  readonly #id = randomUUID();
  readonly #store: Store;
  readonly #codes: CandidateCodes;
  readonly #config: MailConfig;
  readonly #instruments: Instruments;
  readonly #log: FastifyBaseLogger;
  readonly #sender: Sender;
  readonly #metrics: MailMetrics | undefined;
  readonly #loop: OutboxLoop;
  readonly #share: number;
  // Messages on their way, by tenant.
  readonly #sendingBy = new Map<string, number>();
  readonly #walk: TenantWalk;

  constructor(store: Store, config: MailConfig, instruments: Instruments, codes: CandidateCodes, log: FastifyBaseLogger, metrics?: Metrics) {
    this.#store = store;
    this.#codes = codes;
    this.#config = config;
    this.#instruments = instruments;
    this.#log = log.child({ component: 'mail' });
    this.#sender = new Sender(config);
    this.#metrics = metrics ? new MailMetrics(metrics) : undefined;
    this.#share = Math.max(1, Math.floor(config.maxInFlight / 2));
    this.#walk = new TenantWalk((options) => dueTenants(store, { ...options, cap: this.#share }), TENANTS_PER_WALK);
    this.#loop = new OutboxLoop({
      dialect: store.dialect,
      pollIntervalMs: config.pollIntervalMs,
      staleCutoff: () => this.#staleCutoff(),
      sweep: (cutoff) => this.#release(cutoff),
      pass: () => this.#pass(),
      log: this.#log,
      pausedMessage: 'mail paused; the poll will claim again',
    });
  }

  start(): Promise<void> {
    return this.#loop.start();
  }

  // Looks at the outbox finished and mail on its way: tests wait on these (test/helpers/ticks.ts) before saying nothing more was sent.
  get activity(): { passes: number; inFlight: number } {
    return { passes: this.#loop.passes, inFlight: this.#loop.inFlight };
  }

  wake(): void {
    this.#loop.wake();
  }

  /** Stops claiming, then waits for the messages on their way: each ends within the SMTP timeouts. */
  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  // A send takes at most the connection, greeting and socket timeouts; a claim older than that and a minute is orphaned.
  #staleCutoff(): string {
    return new Date(Date.now() - 3 * this.#config.timeoutMs - 60_000).toISOString();
  }

  async #release(cutoff: string): Promise<void> {
    try {
      const n = await releaseStale(this.#store, cutoff);
      if (n > 0) this.#log.warn({ count: n }, 'mail left mid-send by a stopped process queued again');
    } catch (err) {
      this.#log.warn({ err }, 'could not release mail left mid-send');
    }
  }

  /** Claims what the tenants with mail due may have of the free places, and starts sending it; what it got, it looks again. */
  async #pass(): Promise<boolean> {
    const room = this.#config.maxInFlight - this.#loop.inFlight;
    if (room <= 0 || this.#loop.stopped) return false;
    // Only this loop adds to the counts, one pass at a time: what ends meanwhile only frees more.
    const { wants } = shareOut(await this.#walk.next(), (t) => this.#sendingBy.get(t) ?? 0, room, this.#share);
    if (wants.length === 0 || this.#loop.stopped) return false;
    const rows = await claimDue(this.#store, this.#id, wants);
    for (const row of rows) {
      this.#sendingBy.set(row.tenant_id, (this.#sendingBy.get(row.tenant_id) ?? 0) + 1);
      // Registered before any await: an erasure from now on finds this send.
      const send = sendsInFlight(this.#store).begin(row.analysis_id);
      const sending = this.#deliver(row, send)
        .catch((err: unknown) => this.#log.error({ err, analysis: row.analysis_id.slice(0, 6) }, 'mail ended in an unexpected error'))
        .finally(() => send.end());
      this.#loop.track(sending, () => {
        const left = (this.#sendingBy.get(row.tenant_id) ?? 1) - 1;
        if (left > 0) this.#sendingBy.set(row.tenant_id, left);
        else this.#sendingBy.delete(row.tenant_id);
        this.wake();
      });
    }
    return rows.length > 0;
  }

  async #deliver(row: ClaimedMail, send: Send): Promise<void> {
    const settings = await mailSettings(this.#store, row.api_key_id);
    const decision = decide(row.kind, row, settings.reminder_after_seconds, Date.now());
    let ending: Ending;
    if ('later' in decision) ending = { kind: 'later', dueAt: decision.later };
    else if (!decision.send) ending = { kind: 'cancelled', why: decision.why };
    else if (row.email === null) ending = { kind: 'cancelled', why: 'not sent: the candidate has no e-mail address' };
    else ending = await this.#send(row, row.email, settings, send);
    await finish(this.#store, row, this.#id, ending);
    const outcome: MailOutcome | undefined =
      ending.kind === 'sent'
        ? 'sent'
        : ending.kind === 'retry'
          ? 'retry'
          : ending.kind === 'failed'
            ? 'failed'
            : ending.kind === 'cancelled'
              ? 'cancelled'
              : undefined;
    if (outcome) this.#metrics?.message(row.kind, outcome);
    // Never the address or the relay's reply, which may quote it: personal data stays out of the logs.
    // A failure of Assay's own (network, DNS, TLS) is the operator's detail, which the tenant sees generalised.
    const reply = 'reply' in ending ? ending.reply : undefined;
    this.#log.info(
      {
        analysis: row.analysis_id.slice(0, 6),
        kind: row.kind,
        outcome: ending.kind,
        attempts: row.attempts + (ending.kind === 'sent' || ending.kind === 'retry' ? 1 : 0),
        ...(reply !== undefined && tenantReply(reply) !== reply ? { detail: reply } : {}),
      },
      'mail',
    );
  }

  async #send(row: ClaimedMail, email: string, settings: Awaited<ReturnType<typeof mailSettings>>, send: Send): Promise<Ending> {
    const portal = await portalSettings(this.#store, row.api_key_id);
    const logo = portal.logo_type && INLINE_LOGO.has(portal.logo_type) ? await portalLogo(this.#store, row.api_key_id) : undefined;
    const instrument = this.#instruments.get(row.assessment_type)!;
    const candidate = { first_name: row.first_name ?? '', preposition: row.preposition ?? '', last_name: row.last_name ?? '' };
    const mail = renderMail({
      kind: row.kind,
      language: settings.language,
      candidate,
      organisation: portal.organisation_name,
      logoCid: logo ? 'logo@assay' : null,
      instrument,
      // The candidate's personal link: it opens their session on any device, unlike the employer's copy of the AssessmentUrl.
      link: row.portal_domain + portalResumePath(row.analysis_id, this.#codes.resumeToken(row.analysis_id)),
      expiresAt: row.expires_at,
      privacyUrl: portal.privacy_url,
      contactEmail: portal.contact_email,
    });
    const out = await this.#sender.send(
      {
        to: { name: `${candidate.first_name} ${candidate.preposition} ${candidate.last_name}`, address: email },
        fromName: settings.from_name ?? portal.organisation_name,
        replyTo: settings.reply_to ?? portal.contact_email,
        logo: logo ? { bytes: logo.bytes, type: logo.type, cid: 'logo@assay' } : null,
      },
      mail,
      // The row, read again once the relay has greeted: an erasure meanwhile deleted it.
      { signal: send.signal, beforeEnvelope: async () => send.commit(await stillClaimed(this.#store, row.id, this.#id)) },
    );
    if (out.kind === 'withdrawn') return { kind: 'withdrawn' };
    if (out.kind === 'sent') {
      const next =
        settings.reminder_after_seconds !== null && settings.max_reminders > 0
          ? { reminderAfterSeconds: settings.reminder_after_seconds, maxReminders: settings.max_reminders }
          : undefined;
      return { kind: 'sent', recipient: out.recipient!, reply: out.reply, ...(next ? { next } : {}) };
    }
    if (out.kind === 'permanent') return { kind: 'failed', recipient: out.recipient, reply: out.reply, attempted: out.recipient !== null };
    const first = Date.parse(row.first_attempt_at ?? new Date().toISOString());
    if (Date.now() - first >= this.#config.retryForMs) return { kind: 'failed', recipient: out.recipient, reply: givenUp(out.reply), attempted: true };
    const dueAt = new Date(Date.now() + retryDelayMs(row.attempts + 1, this.#config.retryBaseMs)).toISOString();
    return { kind: 'retry', recipient: out.recipient, reply: out.reply, dueAt };
  }
}
