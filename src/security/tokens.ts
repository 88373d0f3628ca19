import { createHash, randomBytes } from 'node:crypto';

const API_KEY_PREFIX = 'ak_';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A new API key: 192 random bits. Only its SHA-256 and a short visible prefix are stored. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 6), hash: sha256(key) };
}

/** AnalysisId: 144 random bits, 24 URL-safe characters. */
export function newAnalysisId(): string {
  return randomBytes(18).toString('base64url');
}

export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}

/** What logs may show of a token: enough to correlate, too little to use. */
export function redactToken(token: string): string {
  return token.length <= 6 ? '…' : `${token.slice(0, 6)}…`;
}
