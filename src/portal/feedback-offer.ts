import type { FastifyRequest } from 'fastify';
import type { Deps } from '../app-types.js';
import { portalSettings } from '../tenancy/portal-settings-store.js';
import type { Loaded } from './session.js';
import { portalPagePath } from '../domain/portal-paths.js';

/** Where a candidate goes after the questionnaire: the ReturnUrl, or the page that asks them to close the tab. */
export function afterwards(l: Pick<Loaded, 'id' | 'session'>): string {
  return l.session.assessment.return_url ?? portalPagePath(l.id, 'done');
}

/** The portal offers this candidate a feedback page: feedback, a release question, or both. */
export async function offersFeedback(deps: Deps, l: Loaded): Promise<boolean> {
  const s = await portalSettings(deps.store, l.session.assessment.api_key_id);
  return s.candidate_feedback === 1 || s.candidate_release === 1 || l.session.assessment.results_release !== null;
}

/** The request comes from the candidate: the browser that pressed Start, or one given their personal code or link since. */
export function isCandidate(deps: Deps, request: FastifyRequest, l: Pick<Loaded, 'id' | 'session'>): boolean {
  return deps.candidateKeys.holds(request, l.id, l.session.assessment.candidate_key_gen);
}
