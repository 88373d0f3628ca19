import { LRUCache } from 'lru-cache';
import { DomainError } from '../domain/errors.js';
import { FailureLimiter } from '../security/failure-limiter.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../security/passwords.js';
import { sha256 } from '../security/tokens.js';
import { findActiveKey, findUser } from '../store/credentials.js';
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
 * api-key first, then Basic credentials; both must belong to one tenant. Keys and users are
 * read from the database on every request, so revocation and disabling act at once.
 * Successful password checks are cached (bounded, short TTL) under a key that includes the
 * stored hash: a reset password misses the cache. Failures are never cached.
 */
export class Authenticator {
  readonly #store: Store;
  readonly #verified: LRUCache<string, true>;
  // Concurrent first requests with the same credentials share one KDF run instead of each paying.
  readonly #inFlight = new Map<string, Promise<boolean>>();
  /** How many times the KDF ran: observable so tests can prove the cache works. */
  kdfRuns = 0;

  readonly #failures: FailureLimiter;

  constructor(store: Store, options: { cacheTtlMs: number; cacheMax: number; failuresPerMinute: number }) {
    this.#store = store;
    this.#verified = new LRUCache({ max: options.cacheMax, ttl: Math.max(options.cacheTtlMs, 1) });
    this.#failures = new FailureLimiter(options.failuresPerMinute);
  }

  /**
   * Too many failures from one client IP, or against one username, within a minute and
   * every further attempt from there gets 429 without touching the database or the KDF.
   */
  async authenticate(apiKey: string | undefined, authorization: string | undefined, clientIp: string): Promise<Caller> {
    const basic = parseBasic(authorization);
    const limited = Math.max(this.#failures.retryAfter(`ip:${clientIp}`), basic ? this.#failures.retryAfter(`user:${basic.username}`) : 0);
    if (limited > 0) {
      throw new DomainError('TooManyRequests', 'Too many failed authentication attempts; try again later', { retryAfterSeconds: limited });
    }
    try {
      return await this.#verify(apiKey, basic);
    } catch (error) {
      if (error instanceof DomainError) {
        this.#failures.fail(`ip:${clientIp}`);
        // A bad key says nothing about the username that came with it.
        if (basic && error.code === 'InvalidCredentials') this.#failures.fail(`user:${basic.username}`);
      }
      throw error;
    }
  }

  async #verify(apiKey: string | undefined, basic: { username: string; password: string } | undefined): Promise<Caller> {
    const key = apiKey ? await findActiveKey(this.#store, sha256(apiKey)) : undefined;
    if (!key) throw new DomainError('InvalidApiKey', INVALID_API_KEY);
    if (!basic) throw new DomainError('InvalidCredentials', INVALID_CREDENTIALS);
    const user = await findUser(this.#store, basic.username);
    const passwordOk = await this.#checkPassword(user?.id, user?.password_hash, basic.password);
    if (!user || !passwordOk || user.disabled !== 0 || user.tenant_id !== key.tenant_id) {
      throw new DomainError('InvalidCredentials', INVALID_CREDENTIALS);
    }
    return { tenantId: key.tenant_id, apiKeyId: key.id, portalDomain: key.portal_domain, userId: user.id };
  }

  async #checkPassword(userId: string | undefined, storedHash: string | undefined, password: string): Promise<boolean> {
    if (userId === undefined || storedHash === undefined) {
      // An unknown username costs what a wrong password costs.
      this.kdfRuns++;
      await verifyPassword(password, DUMMY_PASSWORD_HASH);
      return false;
    }
    const cacheKey = sha256(`${userId}\u0000${storedHash}\u0000${password}`);
    if (this.#verified.has(cacheKey)) return true;
    let pending = this.#inFlight.get(cacheKey);
    if (!pending) {
      this.kdfRuns++;
      pending = verifyPassword(password, storedHash).finally(() => this.#inFlight.delete(cacheKey));
      this.#inFlight.set(cacheKey, pending);
    }
    const ok = await pending;
    if (ok) this.#verified.set(cacheKey, true);
    return ok;
  }
}
