import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../app-types.js';
import { currentStep, type Progress, type Step } from '../measurement/instruments/flow.js';
import { effectiveStatus } from '../lifecycle/rules.js';
import { brandOf } from './brand.js';
import type { Instrument } from '../measurement/instruments/types.js';
import { claimUnbound, loadSession, type Session } from './session-store.js';
import { pageContext, redirect, sendPage } from './render.js';
import type { PageContext } from './views/layout.js';
import { TEXTS } from './texts.js';
import { closedPage, messagePage, notFoundPage } from './views/pages.js';
import { startedElsewherePage } from './views/feedback.js';
import { portalStartPath, portalPagePath, portalQuestionsPath } from '../domain/portal-paths.js';
import { refuseWalk } from './walk-guard.js';

/** AnalysisIds are 24 URL-safe characters; anything far from that is not worth a query. */
const ANALYSIS_ID = /^[A-Za-z0-9_-]{16,64}$/;

export interface Loaded {
  id: string;
  ctx: PageContext;
  session: Session;
  instrument: Instrument;
  progress: Progress;
  step: Step;
}

export function stepUrl(id: string, step: Step): string {
  switch (step.kind) {
    case 'details':
      return portalPagePath(id, 'details');
    case 'gender':
      return portalPagePath(id, 'gender');
    case 'questions':
      return portalQuestionsPath(id, step.page);
    case 'confirm':
      return portalPagePath(id, 'confirm');
    default:
      return portalStartPath(id);
  }
}

/**
 * Reads the assessment behind the URL's token and where its candidate stands. Sends the
 * friendly 404 page itself and returns undefined when there is no such assessment. From Start on,
 * only the candidate's browser gets past it: any other is sent the page that asks for the personal
 * code (`stranger: 'allow'` lets the code pages themselves through).
 */
export async function load(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx = pageContext(request, reply),
  opts: { stranger?: 'allow' } = {},
): Promise<Loaded | undefined> {
  const id = (request.params as { id: string }).id;
  const session = ANALYSIS_ID.test(id) ? await loadSession(deps.store, id) : undefined;
  if (!session) {
    // Only misses count, and only misses are refused: a valid link always opens, whatever its
    // address guessed before (a lookup by primary key costs less than telling them apart).
    const wait = deps.tokenGuesses.retryAfter(request.ip);
    if (wait > 0) {
      const t = TEXTS[ctx.lang];
      sendPage(reply.header('retry-after', String(wait)), messagePage(ctx, t.tooManyTitle, t.tooManyText), { status: 429 });
      return undefined;
    }
    deps.tokenGuesses.count(request.ip);
    sendPage(reply, notFoundPage(ctx), { status: 404 });
    return undefined;
  }
  if (await refuseWalk(deps, request, reply, session.assessment.tenant_id)) return undefined;
  const l = loadedFrom(deps, ctx, id, session);
  // A closed link has one page, whatever URL of it is asked for.
  if (l.step.kind === 'expired' || l.step.kind === 'cancelled') {
    sendPage(reply, closedPage(l.ctx, l.step.kind), { status: 410 });
    return undefined;
  }
  const gen = session.assessment.candidate_key_gen;
  if (l.progress.status === 'Started') {
    if (deps.candidateKeys.holds(request, id, gen)) l.ctx.personalCode = deps.candidateKeys.code(id, gen);
    // Not on HEAD: a link preview or scanner must not claim the candidate's session.
    else if (session.assessment.candidate_bound === 0 && request.method !== 'HEAD' && (await claimUnbound(deps.store, id))) {
      deps.candidateKeys.grant(reply, id, gen);
      l.ctx.personalCode = deps.candidateKeys.code(id, gen);
    } else if (opts.stranger !== 'allow') {
      sendPage(reply, startedElsewherePage(l.ctx, codeUrl(id), reply.generateCsrf({ userInfo: id })), { status: 403 });
      return undefined;
    }
  }
  return l;
}

export const codeUrl = (id: string) => portalPagePath(id, 'code');

/** Where the candidate of `session` stands, as read fresh or kept from their last page. */
export function loadedFrom(deps: Deps, ctx: PageContext, id: string, session: Session): Loaded {
  const instrument = deps.instruments.get(session.assessment.assessment_type)!;
  const progress: Progress = {
    status: effectiveStatus(session.assessment),
    needsToUpdateData: session.candidate.needs_to_update_data === 1,
    gender: session.candidate.gender,
    genderAsked: session.candidate.gender_asked === 1,
    answers: session.answers,
  };
  const branded = { ...ctx, brand: brandOf(session.portal, session.assessment.api_key_id), ...(instrument.kind ? { kind: instrument.kind } : {}) };
  return { id, ctx: branded, session, instrument, progress, step: currentStep(instrument, progress) };
}

/**
 * `load` for a page that belongs to one step (details, gender): a candidate who is elsewhere
 * is sent to the step they are on. Undefined when a response has already been sent.
 */
export async function loadAtStep(deps: Deps, request: FastifyRequest, reply: FastifyReply, kind: Step['kind']): Promise<Loaded | undefined> {
  const l = await load(deps, request, reply);
  if (l && l.step.kind !== kind) {
    toCurrentStep(reply, l);
    return undefined;
  }
  return l;
}

/** Sends the candidate to the step they belong on; used when a URL is visited out of order. */
export function toCurrentStep(reply: FastifyReply, l: Loaded): FastifyReply {
  return redirect(reply, stepUrl(l.id, l.step));
}
