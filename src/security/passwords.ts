import { randomBytes, scrypt as scryptCb, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// The OWASP Password Storage Cheat Sheet lists scrypt N=2^13, r=8, p=10 among its equivalent
// minimums (with N=2^17, p=1). It needs 8 MiB per hash instead of 128 MiB: a burst of failed
// logins on every KDF thread at once stays far from the memory budget.
const PARAMS = { N: 2 ** 13, r: 8, p: 10 } as const;
const KEY_LEN = 32;

function options(N: number, r: number, p: number): ScryptOptions {
  return { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
}

/** Returns `scrypt$N$r$p$salt$hash`, salt and hash in base64url. Runs on libuv's pool: for the CLI and provisioning. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await new Promise<Buffer>((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, KEY_LEN, options(PARAMS.N, PARAMS.r, PARAMS.p), (err, k) => (err ? reject(err) : resolve(k))),
  );
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** As `hashPassword`, blocking the calling thread: for the KDF threads (`kdf-pool.ts`) alone. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, KEY_LEN, options(PARAMS.N, PARAMS.r, PARAMS.p));
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Blocks the calling thread for the whole KDF run, which is slow by design.
 * The server calls it only inside its KDF worker threads (`kdf-pool.ts`), never on the event
 * loop or libuv's pool, which the database's syncs need.
 */
export function verifyPasswordSync(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(password.normalize('NFC'), Buffer.from(salt, 'base64url'), expected.length, options(Number(n), Number(r), Number(p)));
  return timingSafeEqual(actual, expected);
}
