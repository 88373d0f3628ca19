import { createHmac, timingSafeEqual } from 'node:crypto';

const DAY_MS = 86_400_000;

/**
 * Share links to a report: `{portal}/reports/{AnalysisId}?expires={epoch s}&sig={HMAC}`. The HMAC
 * covers the AnalysisId, the expiry and the assessment's report nonce, under a key derived from
 * the server key, so a link works on every instance and after restarts, and a new nonce revokes
 * every link made before it. The expiry is a day boundary, so a link stays the same all day.
 */
export class ReportLinks {
  readonly #key: Buffer;
  readonly #days: number;

  constructor(key: Buffer, days: number) {
    this.#key = key;
    this.#days = days;
  }

  #sign(analysisId: string, nonce: string, expires: number): string {
    return createHmac('sha256', this.#key).update(`${analysisId}.${nonce}.${expires}`).digest('base64url');
  }

  /** The path and query of a link valid for the configured days from today (or `days`, for a link handed to an ATS). */
  path(analysisId: string, nonce: string, now = Date.now(), days = this.#days): string {
    const expires = (Math.floor(now / DAY_MS) + 1 + days) * 86_400;
    return `/reports/${analysisId}?expires=${expires}&sig=${this.#sign(analysisId, nonce, expires)}`;
  }

  /** True when the signature matches this nonce and the link has not expired. */
  valid(analysisId: string, nonce: string | null, expires: unknown, sig: unknown, now = Date.now()): boolean {
    if (!nonce || typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof sig !== 'string') return false;
    if (Number(expires) * 1000 <= now) return false;
    const expected = Buffer.from(this.#sign(analysisId, nonce, Number(expires)));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
