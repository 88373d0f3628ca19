import { LRUCache } from 'lru-cache';
import { DomainError, type ErrorCode } from '../domain/errors.js';
import { WindowLimiter } from '../security/window-limiter.js';
import type { KdfPool } from '../security/kdf-pool.js';
import { parseBasic } from '../security/basic-auth.js';
import { sha256 } from '../security/tokens.js';
import { findCaller } from '../tenancy/credentials-store.js';
import type { Store } from '../db/database.js';

export interface Caller {
  tenantId: string;
  apiKeyId: string;
  portalDomain: string;
  userId: string;
}

export const INVALID_API_KEY = 'The provided API key is not valid';
export const INVALID_CREDENTIALS = 'Invalid username or password';

// A client that once proved a username's password is remembered this long: an attack on that
// username from elsewhere does not lock it out.
const KNOWN_CLIENT_TTL_MS = 7 * 24 * 3600 * 1000;

/** A cached entry: what was proved, from when it is checked again in the background, and until when it holds (performance.now()). */
interface Kept<V> {
  value: V;
  refreshAt: number;
  expiresAt: number;
}

// Past this share of the TTL, a request still uses a cached entry but checks it again in the
// background. When an entry simply expired, every request of that caller waited for one KDF run:
// each client's requests stalled once a TTL.
export const REFRESH_AFTER = 0.75;

export interface AuthOptions {
  cacheTtlMs: number;
  cacheMax: number;
  failuresPerMinute: number;
}

/**
 * api-key first, then Basic credentials; both must belong to one tenant.
 *
 * Two caches, both bounded with a short TTL, neither holding failures:
 * - the authenticated caller, under the SHA-256 of the api-key and Authorization headers,
 *   dropped whole whenever the store's credentials version moves: a revoke, reset or disable,
 *   from this process or another (the CLI, other instances), acts on the next request;
 * - the verdict "this password matches this stored hash", keyed by the stored hash too, so it
 *   survives those drops (no KDF storm after each one) but never a changed password.
 *
 * An entry used in the last quarter of its TTL is checked again behind the request that used it
 * (the caller read again and its password verdict awaited; the verdict put through the KDF
 * again), and kept for another TTL only if that check succeeds; a failed check is tried again a
 * little later. No entry is used past its TTL, and a caller is never kept past the verdict that
 * admitted it. A caller in steady use waits for the KDF only on its first request.
 *
 * Failures are throttled so that nobody's failures refuse anybody else's valid credentials:
 * - a request that matches a cached caller or a cached verdict is never throttled;
 * - a request that cannot succeed whatever its password (an unknown key, a user of another
 *   tenant or none, no Basic credentials) runs no KDF and counts against its client only;
 * - a password check for a user of the key's own tenant reserves a slot per (client,
 *   username) and per username before the KDF runs. The username slot is skipped for clients
 *   that proved this username's password before, so a real caller keeps working while its
 *   username is under attack from elsewhere.
 */
export class Authenticator {
  readonly #store: Store;
  readonly #kdf: KdfPool;
  readonly #callers: LRUCache<string, Kept<Caller>>;
  readonly #verified: LRUCache<string, Kept<true>>;
  readonly #ttlMs: number;
  readonly #retryMs: number;
  // Callers being checked again in the background, so that one check runs per caller at a time.
  readonly #refreshing = new Set<string>();
  readonly #knownClients: LRUCache<string, true>;
  #version = -1;
  // Concurrent first requests with the same credentials share one KDF run instead of each paying.
  readonly #inFlight = new Map<string, Promise<number | undefined>>();
  readonly #failures: WindowLimiter;

  constructor(store: Store, kdf: KdfPool, options: AuthOptions) {
    this.#store = store;
    this.#kdf = kdf;
    const ttl = Math.max(options.cacheTtlMs, 1);
    this.#callers = new LRUCache({ max: options.cacheMax, ttl });
    this.#verified = new LRUCache({ max: options.cacheMax, ttl });
    this.#ttlMs = ttl;
    // At most two tries in the last quarter: under overload a failing check is not repeated on every request.
    this.#retryMs = (ttl * (1 - REFRESH_AFTER)) / 2;
    this.#knownClients = new LRUCache({ max: 100_000, ttl: KNOWN_CLIENT_TTL_MS });
    this.#failures = new WindowLimiter(options.failuresPerMinute);
  }

  /** How many times the KDF ran to a verdict. */
  get kdfRuns(): number {
    return this.#kdf.runs;
  }

  /** A cached caller comes back at once, not in a promise: the hot path awaits nothing. */
  authenticate(apiKey: string | undefined, authorization: string | undefined, clientIp: string): Caller | Promise<Caller> {
    const version = this.#store.credentialsVersion();
    if (version !== this.#version) {
      this.#callers.clear();
      this.#version = version;
    }
    const cacheKey = apiKey && authorization ? sha256(`${apiKey}\n${authorization}`) : undefined;
    const cached = cacheKey ? this.#callers.get(cacheKey) : undefined;
    if (!cached || !cacheKey) return this.#authenticateAnew(apiKey, authorization, clientIp, cacheKey, version, false);
    if (cached.refreshAt <= performance.now() && !this.#refreshing.has(cacheKey)) {
      this.#refreshing.add(cacheKey);
      // A failed check keeps nothing: the entry ends at its TTL unless a later try succeeds.
      this.#authenticateAnew(apiKey, authorization, clientIp, cacheKey, version, true)
        .catch(() => (cached.refreshAt = performance.now() + this.#retryMs))
        .finally(() => this.#refreshing.delete(cacheKey));
    }
    return cached.value;
  }

  /** Keeps `value` for a TTL, or until `holdsUntil` if that is sooner; says until when. */
  #keep<V>(cache: LRUCache<string, Kept<V>>, key: string, value: V, holdsUntil = Infinity): number {
    const now = performance.now();
    const expiresAt = Math.min(now + this.#ttlMs, holdsUntil);
    if (expiresAt - now >= 1) cache.set(key, { value, refreshAt: now + (expiresAt - now) * REFRESH_AFTER, expiresAt }, { ttl: expiresAt - now });
    return expiresAt;
  }

  async #authenticateAnew(
    apiKey: string | undefined,
    authorization: string | undefined,
    clientIp: string,
    cacheKey: string | undefined,
    version: number,
    // A check behind a request that was already answered: it waits for the password's verdict too.
    background: boolean,
  ): Promise<Caller> {
    const basic = parseBasic(authorization);
    const row = apiKey ? await findCaller(this.#store, sha256(apiKey), basic?.username ?? '') : undefined;
    if (!row) return this.#refuse(clientIp, 'InvalidApiKey', INVALID_API_KEY);
    // Usernames are unique across tenants. Another tenant's user and no user are refused alike
    // and without a KDF, so a key holder learns nothing about other tenants' usernames.
    if (!basic || !row.user_id || !row.password_hash || row.user_tenant_id !== row.key_tenant_id || row.disabled !== 0) {
      return this.#refuse(clientIp, 'InvalidCredentials', INVALID_CREDENTIALS);
    }
    const proved = await this.#checkPassword(row.user_id, row.password_hash, basic, clientIp, background);
    if (proved === undefined) throw new DomainError('InvalidCredentials', INVALID_CREDENTIALS);
    const caller = { tenantId: row.key_tenant_id, apiKeyId: row.key_id, portalDomain: row.portal_domain, userId: row.user_id };
    // A credential change that landed meanwhile may not be in what findCaller read: do not keep that.
    if (cacheKey && this.#store.credentialsVersion() === version) this.#keep(this.#callers, cacheKey, caller, proved);
    return caller;
  }

  /** A request no password could make valid: 401, or 429 once its client has sent too many. */
  #refuse(clientIp: string, code: ErrorCode, message: string): never {
    const key = `client:${clientIp}`;
    const wait = this.#failures.retryAfter(key);
    if (wait > 0) throw tooMany(wait);
    this.#failures.count(key);
    throw new DomainError(code, message);
  }

  /**
   * Until when (performance.now()) the password is proved for this stored hash; undefined if it
   * does not match. A verdict due for its check but still within its TTL answers at once, the KDF
   * running behind the request, unless `wait`: then the answer is the check's.
   */
  async #checkPassword(
    userId: string,
    storedHash: string,
    basic: { username: string; password: string },
    clientIp: string,
    wait: boolean,
  ): Promise<number | undefined> {
    const verdictKey = sha256(`${userId}\u0000${storedHash}\u0000${basic.password}`);
    const verdict = this.#verified.get(verdictKey);
    if (verdict && verdict.refreshAt > performance.now()) return verdict.expiresAt;
    const knownKey = `${basic.username}\n${clientIp}`;
    const checked = this.#verify(verdictKey, knownKey, basic, storedHash, clientIp).then((until) => {
      if (until !== undefined) this.#knownClients.set(knownKey, true);
      return until;
    });
    if (verdict && !wait) {
      // Due for its check but good until its TTL: the KDF runs behind this request.
      checked.catch(() => {});
      return verdict.expiresAt;
    }
    return checked;
  }

  /** One KDF run per verdict at a time, its slots reserved first; a match is kept, and the answer is until when (undefined: no match). */
  #verify(
    verdictKey: string,
    knownKey: string,
    basic: { username: string; password: string },
    storedHash: string,
    clientIp: string,
  ): Promise<number | undefined> {
    const running = this.#inFlight.get(verdictKey);
    if (running) return running;
    const buckets = [`pair:${clientIp}\n${basic.username}`];
    if (!this.#knownClients.has(knownKey)) buckets.push(`user:${basic.username}`);
    const slot = this.#failures.reserve(buckets);
    if (typeof slot === 'number') return Promise.reject(tooMany(slot));
    const pending = this.#kdf
      .verify(basic.password, storedHash, clientIp)
      .then(
        (ok) => {
          if (!ok) return undefined;
          slot.release();
          return this.#keep(this.#verified, verdictKey, true);
        },
        (error: unknown) => {
          // The pool refused to run it: no verdict, so no failure either.
          slot.release();
          throw error;
        },
      )
      .finally(() => this.#inFlight.delete(verdictKey));
    this.#inFlight.set(verdictKey, pending);
    return pending;
  }
}

function tooMany(seconds: number): DomainError {
  return new DomainError('TooManyRequests', 'Too many failed authentication attempts; try again later', { retryAfterSeconds: seconds });
}
