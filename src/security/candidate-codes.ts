import { createHmac, timingSafeEqual } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so a code read aloud or retyped is hard to get wrong. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_CHARS = 12;
const RESUME_TOKEN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The candidate's own credentials, derived from the AnalysisId under a key only the server holds:
 * nothing is stored, and each can be shown again to whoever already holds it. The employer holds
 * the AssessmentUrl, so the AnalysisId alone is never enough.
 * - The personal code, shown in the candidate's browser from Start on, typed on another device.
 * - The resume token, in the personal link of the e-mails Assay sends to the candidate's mailbox.
 */
export class CandidateCodes {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  /** The personal code of the credential's generation `gen`, 12 characters (60 bits) in groups of four. */
  code(analysisId: string, gen = 0): string {
    // Generation 0 keeps the form codes had before generations, so codes already given still work.
    const mac = this.#mac(gen === 0 ? `candidate.${analysisId}` : `candidate.${analysisId}.${gen}`);
    let bits = 0n;
    for (const byte of mac.subarray(0, 8)) bits = (bits << 8n) | BigInt(byte);
    let plain = '';
    for (let i = 0; i < CODE_CHARS; i++) plain += ALPHABET[Number((bits >> BigInt(59 - 5 * i)) & 31n)];
    return plain.match(/.{4}/g)!.join('-');
  }

  /** Whether `given`, as typed (any case, spaces or dashes, O for 0, I or L for 1), is this assessment's code. */
  matches(analysisId: string, given: unknown, gen = 0): boolean {
    if (typeof given !== 'string' || given.length > 64) return false;
    return sameBytes(normaliseCode(given), normaliseCode(this.code(analysisId, gen)));
  }

  /** The token of the personal link, 128 bits in base64url. */
  resumeToken(analysisId: string): string {
    return this.#mac(`resume.${analysisId}`).subarray(0, 16).toString('base64url');
  }

  resumeMatches(analysisId: string, given: unknown): boolean {
    return typeof given === 'string' && RESUME_TOKEN.test(given) && sameBytes(given, this.resumeToken(analysisId));
  }

  #mac(message: string): Buffer {
    return createHmac('sha256', this.#key).update(message).digest();
  }
}

export function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

function sameBytes(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
