import type { FastifyReply, FastifyRequest } from 'fastify';
import { CandidateCodes, normaliseCode } from '../security/candidate-codes.js';
import { PORTAL_PREFIX } from '../domain/portal-paths.js';

// One cookie per assessment, sent to every portal page of it (the start page's path included).
const cookieName = (analysisId: string) => `assay_candidate_${analysisId}`;
// As long as the results may be kept; retention erases them sooner.
const MAX_AGE_SECONDS = 365 * 86_400;

/**
 * The candidate's credential in their browser: the browser that pressed Start (or was given the
 * personal code or link) keeps the code in an HttpOnly cookie, and only it may see the answers,
 * finish, decide or withdraw.
 */
export class CandidateKeys extends CandidateCodes {
  /** Whether the request carries the candidate's cookie for this assessment. */
  holds(request: FastifyRequest, analysisId: string, gen: number): boolean {
    return this.matches(analysisId, request.cookies?.[cookieName(analysisId)], gen);
  }

  /** Gives this browser the credential, for this assessment's pages only. */
  grant(reply: FastifyReply, analysisId: string, gen: number): void {
    // Lax, not Strict: a candidate who comes back through a link in an e-mail must be recognised.
    reply.setCookie(cookieName(analysisId), normaliseCode(this.code(analysisId, gen)), {
      path: PORTAL_PREFIX,
      maxAge: MAX_AGE_SECONDS,
      sameSite: 'lax',
      httpOnly: true,
      secure: 'auto',
    });
  }
}
