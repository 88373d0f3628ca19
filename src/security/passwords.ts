import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// OWASP Password Storage Cheat Sheet lists scrypt N=2^14, r=8, p=5 as one of its equivalent
// minimums; it needs 16 MiB per hash instead of the 128 MiB of N=2^17, p=1.
const PARAMS = { N: 2 ** 14, r: 8, p: 5 } as const;
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

/** A hash of a password nobody knows: verifying against it costs what a real one does. */
export const DUMMY_PASSWORD_HASH = await hashPassword(randomBytes(16).toString('base64url'));
