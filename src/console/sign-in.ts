import { LRUCache } from 'lru-cache';
import type { Store } from '../db/database.js';
import type { KdfPool } from '../security/kdf-pool.js';
import { newSecretToken } from '../security/tokens.js';
import { WindowLimiter } from '../security/window-limiter.js';
import { findConsoleUserByEmail, type ConsoleUserRow } from '../tenancy/console-users.js';

const WINDOW_MS = 15 * 60_000;
/** Failures one address may make on one e-mail address in 15 minutes. */
export const FAILURES_PER_ADDRESS_AND_ACCOUNT = 5;
/** Failures on one e-mail address from addresses that never signed in to it, in 15 minutes. */
export const FAILURES_PER_ACCOUNT = 20;
/** Failures one address may make over all e-mail addresses before its failures read "too many". */
export const FAILURES_PER_ADDRESS = 30;
/** An address that signed in to an account is remembered this long: an attack on the account from elsewhere does not lock it out there. */
const KNOWN_ADDRESS_TTL_MS = 30 * 24 * 3600 * 1000;

export type SignInOutcome = { ok: true; user: ConsoleUserRow } | { ok: false; user: ConsoleUserRow | undefined; retryAfterSeconds?: number };

/**
 * Checks an e-mail address and password, throttled by who could have sent them
 * (docs/decisions/console-sign-in-throttled-per-account.md):
 * - every attempt takes a slot per (address, e-mail) and, from addresses that never signed in to
 *   that e-mail, per e-mail, before the KDF runs; a success gives them back. Unknown and known
 *   e-mails are counted alike, so the answers tell them apart neither by text nor by throttling;
 * - an address's failures over all e-mails only turn its failures into "too many": a right
 *   password passes, so one person's failures never lock out another user at that address;
 * - an unknown e-mail, a disabled user and one without a password yet run the KDF against a dummy
 *   hash: the same answer, in about the same time.
 */
export class SignInGate {
  readonly #pairs = new WindowLimiter(FAILURES_PER_ADDRESS_AND_ACCOUNT, WINDOW_MS);
  readonly #accounts = new WindowLimiter(FAILURES_PER_ACCOUNT, WINDOW_MS);
  readonly #addresses = new WindowLimiter(FAILURES_PER_ADDRESS, WINDOW_MS);
  readonly #known = new LRUCache<string, true>({ max: 100_000, ttl: KNOWN_ADDRESS_TTL_MS });
  #dummy: Promise<string> | undefined;
  readonly #store: Store;
  readonly #kdf: KdfPool;

  constructor(store: Store, kdf: KdfPool) {
    this.#store = store;
    this.#kdf = kdf;
  }

  async attempt(emailTyped: string, password: string, address: string): Promise<SignInOutcome> {
    // No address is longer; a longer one only keys the windows by its start, so they stay small.
    const email = emailTyped.trim().toLowerCase().slice(0, 254);
    const pair = this.#pairs.reserve([`${address}\n${email}`]);
    if (typeof pair === 'number') return { ok: false, user: undefined, retryAfterSeconds: pair };
    const knownHere = this.#known.has(`${address}\n${email}`);
    const account = knownHere ? { release: () => {} } : this.#accounts.reserve([email]);
    if (typeof account === 'number') {
      pair.release();
      return { ok: false, user: undefined, retryAfterSeconds: account };
    }
    let matched: boolean;
    let user: ConsoleUserRow | undefined;
    try {
      user = await findConsoleUserByEmail(this.#store, email);
      const stored = user && user.password_hash !== null && user.disabled_at === null ? user.password_hash : undefined;
      // The body limit bounds the password; the KDF runs whether or not there is a hash to match.
      matched = (await this.#kdf.verify(password, stored ?? (await this.#dummyHash(address)), address)) && stored !== undefined;
    } catch (err) {
      // Not a failure of the password (a full KDF queue, a database outage): nothing counted.
      pair.release();
      account.release();
      throw err;
    }
    if (matched && user) {
      pair.release();
      account.release();
      this.#known.set(`${address}\n${email}`, true);
      return { ok: true, user };
    }
    const wait = this.#addresses.retryAfter(address);
    this.#addresses.count(address);
    return { ok: false, user, ...(wait > 0 ? { retryAfterSeconds: wait } : {}) };
  }

  /** A hash of a random password, made once, that no password matches. */
  #dummyHash(address: string): Promise<string> {
    this.#dummy ??= this.#kdf.hash(newSecretToken(), address).catch((err: unknown) => {
      this.#dummy = undefined;
      throw err;
    });
    return this.#dummy;
  }
}
