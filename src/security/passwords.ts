import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// The OWASP Password Storage Cheat Sheet lists scrypt N=2^13, r=8, p=10 among its equivalent
// minimums (with N=2^17, p=1). It needs 8 MiB per hash instead of 128 MiB: a burst of failed
// logins on every thread-pool thread at once stays far from the memory budget.
const PARAMS = { N: 2 ** 13, r: 8, p: 10 } as const;
const KEY_LEN = 32;

function scrypt(password: string, salt: Buffer, keyLen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

function options(N: number, r: number, p: number): ScryptOptions {
  return { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
}

/** Returns `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LEN, options(PARAMS.N, PARAMS.r, PARAMS.p));
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, options(Number(n), Number(r), Number(p)));
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/** A hash of a password nobody knows, made on first use: verifying against it costs what a real one does. */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('base64url'));
  return dummy;
}
