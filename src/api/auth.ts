import { LRUCache } from 'lru-cache';
import { DomainError } from '../domain/errors.js';
import { FailureLimiter } from '../security/failure-limiter.js';
import { dummyPasswordHash, verifyPassword } from '../security/passwords.js';
import { sha256 } from '../security/tokens.js';
import { findCaller } from '../store/credentials.js';
import type { Store } from '../store/database.js';

export interface Caller {
  tenantId: string;
  apiKeyId: string;
  portalDomain: string;
  userId: string;
}

export const INVALID_API_KEY = 'The provided API key is not valid';
export const INVALID_CREDENTIALS = 'Invalid username or password';

/** Splits `Authorization: Basic base64(user:password)`; undefined when it is not that. */
export function parseBasic(header: string | undefined): { username: string; password: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
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
 */
export class Authenticator {
  readonly #store: Store;
  readonly #callers: LRUCache<string, { caller: Caller; username: string }>;
  readonly #verified: LRUCache<string, true>;
  #version = -1;
  // Concurrent first requests with the same credentials share one KDF run instead of each paying.
  readonly #inFlight = new Map<string, Promise<boolean>>();
  readonly #failures: FailureLimiter;
  /** How many times the KDF ran: observable so tests can prove the cache works. */
  kdfRuns = 0;

  constructor(store: Store, options: { cacheTtlMs: number; cacheMax: number; failuresPerMinute: number }) {
    this.#store = store;
    this.#callers = new LRUCache({ max: options.cacheMax, ttl: Math.max(options.cacheTtlMs, 1) });
    this.#verified = new LRUCache({ max: options.cacheMax, ttl: Math.max(options.cacheTtlMs, 1) });
    this.#failures = new FailureLimiter(options.failuresPerMinute);
  }

  /**
   * Too many failures from one client IP, or against one username, within a minute and
   * every further attempt from there gets 429 (thrown) without touching the database or the KDF.
   * A cached caller comes back at once, not in a promise: the hot path awaits nothing.
   */
  authenticate(apiKey: string | undefined, authorization: string | undefined, clientIp: string): Caller | Promise<Caller> {
    this.#refuseWhileLimited(`ip:${clientIp}`);
    const version = this.#store.credentialsVersion();
    if (version !== this.#version) {
      this.#callers.clear();
      this.#version = version;
    }
    const cacheKey = apiKey && authorization ? sha256(`${apiKey}\n${authorization}`) : undefined;
    const cached = cacheKey ? this.#callers.get(cacheKey) : undefined;
    if (cached) {
      this.#refuseWhileLimited(`user:${cached.username}`);
      return cached.caller;
    }
    const basic = parseBasic(authorization);
    if (basic) this.#refuseWhileLimited(`user:${basic.username}`);
    return this.#authenticateAnew(apiKey, basic, clientIp, cacheKey, version);
  }

  async #authenticateAnew(
    apiKey: string | undefined,
    basic: { username: string; password: string } | undefined,
    clientIp: string,
    cacheKey: string | undefined,
    version: number,
  ): Promise<Caller> {
    try {
      const caller = await this.#verify(apiKey, basic);
      // A credential change that landed meanwhile may not be in what #verify read: do not keep that.
      if (cacheKey && this.#store.credentialsVersion() === version) this.#callers.set(cacheKey, { caller, username: basic!.username });
      return caller;
    } catch (error) {
      if (error instanceof DomainError) {
        this.#failures.fail(`ip:${clientIp}`);
        // A bad key says nothing about the username that came with it.
        if (basic && error.code === 'InvalidCredentials') this.#failures.fail(`user:${basic.username}`);
      }
      throw error;
    }
  }

  #refuseWhileLimited(key: string): void {
    const wait = this.#failures.retryAfter(key);
    if (wait > 0) throw new DomainError('TooManyRequests', 'Too many failed authentication attempts; try again later', { retryAfterSeconds: wait });
  }

  async #verify(apiKey: string | undefined, basic: { username: string; password: string } | undefined): Promise<Caller> {
    const row = apiKey ? await findCaller(this.#store, sha256(apiKey), basic?.username ?? '') : undefined;
    if (!row) throw new DomainError('InvalidApiKey', INVALID_API_KEY);
    if (!basic) throw new DomainError('InvalidCredentials', INVALID_CREDENTIALS);
    const passwordOk = await this.#checkPassword(row.user_id ?? undefined, row.password_hash ?? undefined, basic.password);
    if (!row.user_id || !passwordOk || row.disabled !== 0 || row.user_tenant_id !== row.key_tenant_id) {
      throw new DomainError('InvalidCredentials', INVALID_CREDENTIALS);
    }
    return { tenantId: row.key_tenant_id, apiKeyId: row.key_id, portalDomain: row.portal_domain, userId: row.user_id };
  }

  async #checkPassword(userId: string | undefined, storedHash: string | undefined, password: string): Promise<boolean> {
    if (userId === undefined || storedHash === undefined) {
      // An unknown username costs what a wrong password costs.
      this.kdfRuns++;
      await verifyPassword(password, await dummyPasswordHash());
      return false;
    }
    const key = sha256(`${userId}\u0000${storedHash}\u0000${password}`);
    if (this.#verified.has(key)) return true;
    let pending = this.#inFlight.get(key);
    if (!pending) {
      this.kdfRuns++;
      pending = verifyPassword(password, storedHash).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    const ok = await pending;
    if (ok) this.#verified.set(key, true);
    return ok;
  }
}
