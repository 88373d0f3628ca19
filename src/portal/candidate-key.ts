import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Crockford's base 32: no I, L, O or U, so a code read aloud or retyped is hard to get wrong. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_CHARS = 12;
// One cookie per assessment, sent to every portal page of it (the start page's path differs).
const cookieName = (analysisId: string) => `assay_candidate_${analysisId}`;
// As long as the results may be kept; retention erases them sooner.
const MAX_AGE_SECONDS = 365 * 86_400;

/**
 * The candidate's own credential for what happens after they finish: their feedback and the
 * release of their results. The employer holds the AssessmentUrl, so the AnalysisId alone is
 * not enough. The code is an HMAC of the AnalysisId under a key only the server holds: nothing
 * is stored, and it can be shown again to whoever already holds it. The browser that finished
 * keeps it in an HttpOnly cookie; on another device the candidate types it.
 */
export class CandidateKeys {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  /** The personal code, 12 characters (60 bits) in groups of four. */
  code(analysisId: string): string {
    const mac = createHmac('sha256', this.#key).update(`candidate.${analysisId}`).digest();
    let bits = 0n;
    for (const byte of mac.subarray(0, 8)) bits = (bits << 8n) | BigInt(byte);
    let plain = '';
    for (let i = 0; i < CODE_CHARS; i++) plain += ALPHABET[Number((bits >> BigInt(59 - 5 * i)) & 31n)];
    return plain.match(/.{4}/g)!.join('-');
  }

  /** Whether `given`, as typed (any case, spaces or dashes, O for 0, I or L for 1), is this assessment's code. */
  matches(analysisId: string, given: unknown): boolean {
    if (typeof given !== 'string' || given.length > 64) return false;
    const typed = Buffer.from(normalise(given));
    const expected = Buffer.from(normalise(this.code(analysisId)));
    return typed.length === expected.length && timingSafeEqual(typed, expected);
  }

  /** Whether the request carries the candidate's cookie for this assessment. */
  holds(request: FastifyRequest, analysisId: string): boolean {
    return this.matches(analysisId, request.cookies?.[cookieName(analysisId)]);
  }

  /** Gives this browser the credential, for this assessment's pages only. */
  grant(reply: FastifyReply, analysisId: string): void {
    // Lax, not Strict: a candidate who comes back through a link in an e-mail must be recognised.
    reply.setCookie(cookieName(analysisId), normalise(this.code(analysisId)), {
      path: '/anonymous/analyse',
      maxAge: MAX_AGE_SECONDS,
      sameSite: 'lax',
      httpOnly: true,
      secure: 'auto',
    });
  }
}

function normalise(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}
