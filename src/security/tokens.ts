import { hash, randomFillSync } from 'node:crypto';

const API_KEY_PREFIX = 'ak_';

const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * Bytes from the CSPRNG, drawn 4 KiB at a time: one call into OpenSSL per call cost more than
 * the rest of creating an assessment. Every byte is handed out once.
 */
function randomBytes(n: number): Buffer {
  if (used + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_SIZE));
    used = 0;
  }
  used += n;
  return pool.subarray(used - n, used);
}

export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

/** A new key (192 random bits) with the given three-character prefix. Only its SHA-256 and a short visible prefix are stored. */
function newKey(prefix: string): { key: string; prefix: string; hash: string } {
  const key = prefix + randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, prefix.length + 6), hash: sha256(key) };
}

/** A new API key for a tenant's caller. */
export const newApiKey = () => newKey(API_KEY_PREFIX);

/** A new Greenhouse key: what Greenhouse sends as the Basic user name (it refuses 171 characters or more; ours are 35). */
export const newGreenhouseKey = () => newKey('gh_');

/**
 * AnalysisId: 24 URL-safe characters from 144 random bits, drawn again when the first would be
 * - or _ (just under 144 bits remain). An id that starts with a dash reads as an option to
 * `bin/assay report revoke <id>` and to most shells' tools.
 */
export function newAnalysisId(): string {
  for (;;) {
    const id = randomBytes(18).toString('base64url');
    if (id[0] !== '-' && id[0] !== '_') return id;
  }
}

/** A bearer secret of 256 random bits, base64url: a console session id or set-password link. Store only its SHA-256. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * What logs may show of a token: enough to correlate, too little to use. The mark is ASCII ('...',
 * never in a base64url token): one character outside Latin-1 makes V8 keep the whole line, and the
 * turn's batch of lines it joins, in two bytes a character, which a results read paid for in CPU.
 */
export const REDACTED = '...';

export function redactToken(token: string): string {
  return token.length <= 6 ? REDACTED : `${token.slice(0, 6)}${REDACTED}`;
}
