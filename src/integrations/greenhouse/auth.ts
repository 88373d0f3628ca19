import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../db/database.js';
import { DomainError } from '../../domain/errors.js';
import { countAgainstKey } from '../../http/key-limit.js';
import { parseBasic } from '../../security/basic-auth.js';
import { sha256 } from '../../security/tokens.js';
import { WindowLimiter } from '../../security/window-limiter.js';
import { findGreenhouseKey } from '../../tenancy/greenhouse-keys-store.js';
import { MAX_KEY_LENGTH } from './mapping.js';
import type { GreenhouseCaller } from './types.js';

export const INVALID_KEY = 'The Greenhouse API key is not valid';

/**
 * Greenhouse sends its key as the Basic username with an empty password. The rules are the
 * caller API's: a request no key could make valid counts against its client's address, and past
 * AUTH_FAILURES_PER_MINUTE that client gets 429 until its minute ends; a valid key is never
 * refused for others' failures; each key has RATE_LIMIT_PER_KEY_PER_MINUTE requests a minute.
 * The keys are 192 random bits stored as SHA-256, so a lookup needs no password KDF and no cache:
 * a revoke acts on the next request.
 */
export class GreenhouseAuth {
  readonly #store: Store;
  readonly #failures: WindowLimiter;
  readonly #perKey: WindowLimiter;

  constructor(store: Store, failuresPerMinute: number, perKeyPerMinute: number) {
    this.#store = store;
    this.#failures = new WindowLimiter(failuresPerMinute);
    this.#perKey = new WindowLimiter(perKeyPerMinute);
  }

  async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<GreenhouseCaller> {
    const header = request.headers.authorization;
    const key = parseBasic(Array.isArray(header) ? header[0] : header)?.username;
    const row = key && key.length <= MAX_KEY_LENGTH ? await findGreenhouseKey(this.#store, sha256(key)) : undefined;
    if (!key || !row) {
      const client = `client:${request.ip}`;
      const wait = this.#failures.retryAfter(client);
      if (wait > 0) throw new DomainError('TooManyRequests', 'Too many failed authentication attempts; try again later', { retryAfterSeconds: wait });
      this.#failures.count(client);
      reply.header('www-authenticate', 'Basic realm="Assay Greenhouse", charset="UTF-8"');
      throw new DomainError('InvalidApiKey', INVALID_KEY);
    }
    const limited = countAgainstKey(this.#perKey, `greenhouse:${row.id}`, reply);
    if (limited) throw limited;
    return { keyId: row.id, tenantId: row.tenant_id, apiKeyId: row.api_key_id, portalDomain: row.portal_domain, key };
  }
}
