import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, Deps } from '../../app-types.js';
import { takeForm } from '../../http/forms.js';
import { redirect, sendPage } from '../render.js';
import { codeUrl, load, stepUrl, toCurrentStep, type Loaded } from '../session.js';
import { isCandidate, offersFeedback } from '../feedback-offer.js';
import { TEXTS } from '../texts.js';
import { codePage, moveHerePage, startedElsewherePage } from '../views/feedback.js';
import { rekey } from '../session-store.js';
import { messagePage } from '../views/pages.js';
import { portalStartPath, portalPagePath } from '../../domain/portal-paths.js';

/** Where the personal code leads: the step of a started assessment, the feedback of a finished one; undefined when it opens nothing. */
async function codeOpens(deps: Deps, l: Loaded): Promise<string | undefined> {
  if (l.progress.status === 'Started') return stepUrl(l.id, l.step);
  if (l.step.kind === 'completed' && (await offersFeedback(deps, l))) return portalPagePath(l.id, 'feedback');
  return undefined;
}

function codeForm(l: Loaded, reply: FastifyReply, wrong: boolean) {
  const csrf = reply.generateCsrf({ userInfo: l.id });
  const page = l.progress.status === 'Started' ? startedElsewherePage(l.ctx, codeUrl(l.id), csrf, wrong) : codePage(l.ctx, codeUrl(l.id), csrf, wrong);
  return sendPage(reply, page, { status: wrong ? 400 : 200 });
}

/**
 * Seconds until this client may try a code for this assessment. Only wrong codes count, apart
 * from unknown links: the address's own guesses, and every address's for the assessment, so a
 * shared address's other traffic never locks a candidate out, and one address's burst never
 * uses up the assessment's allowance.
 */
function codeWait(deps: Deps, request: FastifyRequest, id: string): number {
  return Math.max(deps.codeGuesses.byAddress.retryAfter(request.ip), deps.codeGuesses.byAssessment.retryAfter(id));
}

/** The personal code's pages and the personal link from the candidate's e-mail: the ways back into a session on another device. */
export function codeRoutes(app: App, deps: Deps): void {
  app.get('/:id/code', async (request, reply) => {
    const l = await load(deps, request, reply, undefined, { stranger: 'allow' });
    if (!l) return reply;
    const opens = await codeOpens(deps, l);
    if (!opens) return toCurrentStep(reply, l);
    if (isCandidate(deps, request, l)) return redirect(reply, opens);
    return codeForm(l, reply, false);
  });

  app.post('/:id/code', { preHandler: app.csrfProtection }, async (request, reply) => {
    const code = takeForm(request).code;
    const l = await load(deps, request, reply, undefined, { stranger: 'allow' });
    if (!l) return reply;
    const opens = await codeOpens(deps, l);
    if (!opens) return toCurrentStep(reply, l);
    const wait = codeWait(deps, request, l.id);
    if (wait > 0) {
      const t = TEXTS[l.ctx.lang];
      return sendPage(reply.header('retry-after', String(wait)), messagePage(l.ctx, t.tooManyTitle, t.tooManyText), { status: 429 });
    }
    const gen = l.session.assessment.candidate_key_gen;
    if (deps.candidateKeys.matches(l.id, code, gen)) {
      deps.candidateKeys.grant(reply, l.id, gen);
      return redirect(reply, opens);
    }
    deps.codeGuesses.byAddress.count(request.ip);
    deps.codeGuesses.byAssessment.count(l.id);
    return codeForm(l, reply, true);
  });

  // The personal link in the candidate's e-mails: it gives the browser the credential, before or after Start.
  // Its 128-bit token cannot be guessed, so it counts no guesses either: no one can lock the mailbox's link out.
  app.get('/:id/resume/:token', async (request, reply) => {
    const l = await load(deps, request, reply, undefined, { stranger: 'allow' });
    if (!l) return reply;
    const gen = l.session.assessment.candidate_key_gen;
    if (deps.candidateKeys.resumeMatches(l.id, (request.params as { token: string }).token) && !isCandidate(deps, request, l)) {
      // A session under way elsewhere moves here only on the candidate's say-so (the post below).
      if (l.progress.status === 'Started') return sendPage(reply, moveHerePage(l.ctx, request.url.split('?')[0]!, reply.generateCsrf({ userInfo: l.id })));
      deps.candidateKeys.grant(reply, l.id, gen);
    }
    // A wrong link leads to the assessment's own page, which asks for the code where it must.
    return redirect(reply, portalStartPath(l.id));
  });

  // Moves a started session to this browser: a new generation of the credential cuts off every browser given it before.
  app.post('/:id/resume/:token', { preHandler: app.csrfProtection }, async (request, reply) => {
    takeForm(request);
    const l = await load(deps, request, reply, undefined, { stranger: 'allow' });
    if (!l) return reply;
    const gen = l.session.assessment.candidate_key_gen;
    const right = deps.candidateKeys.resumeMatches(l.id, (request.params as { token: string }).token);
    if (right && l.progress.status === 'Started' && !isCandidate(deps, request, l) && (await rekey(deps.store, l.id, gen))) {
      deps.candidateKeys.grant(reply, l.id, gen + 1);
    }
    return redirect(reply, portalStartPath(l.id));
  });
}
