import type { FastifyReply } from 'fastify';
import type { App, Deps } from '../../app-types.js';
import { isComplete, mayVisitPage, pageCount, pageItems, readPageAnswers, resumePage } from '../../measurement/instruments/flow.js';
import { scoreCompletion } from '../../measurement/completion.js';
import { completeAssessment } from '../../assessments/complete.js';
import { saveAnswers, saveIfUnchanged } from '../../assessments/answers-store.js';
import { recentSessions } from '../recent-sessions.js';
import { takeForm } from '../../http/forms.js';
import { afterwards } from '../feedback-offer.js';
import { pageContext, redirect, sendPage } from '../render.js';
import { load, loadAtStep, loadedFrom, toCurrentStep, type Loaded } from '../session.js';
import { closeTabPage, completedPage, confirmPage } from '../views/pages.js';
import { questionsPage } from '../views/questions.js';
import { portalStartPath, portalPagePath, portalQuestionsPath } from '../../domain/portal-paths.js';

function pageNumber(raw: unknown): number {
  return typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
}

function renderPage(
  reply: FastifyReply,
  l: Loaded,
  page: number,
  csrf: string,
  answers: ReadonlyMap<string, number>,
  missing: ReadonlySet<string> = new Set(),
) {
  const items = pageItems(l.instrument, page);
  const view = questionsPage(l.ctx, {
    instrument: l.instrument,
    page,
    pages: pageCount(l.instrument),
    items,
    firstNumber: (page - 1) * l.instrument.itemsPerPage + 1,
    answers,
    answeredTotal: answers.size,
    missing,
    action: portalQuestionsPath(l.id, page),
    csrf,
  });
  return sendPage(reply, view, { status: missing.size ? 400 : 200, formTarget: l.session.assessment.return_url });
}

/** Where a saved page leads: the next page; after the last, the confirmation or a page that still has an unanswered item. */
function nextAfter(l: Loaded, page: number, answers: ReadonlyMap<string, number>): string {
  if (page !== pageCount(l.instrument)) return portalQuestionsPath(l.id, page + 1);
  const merged = new Map([...l.session.answers, ...answers]);
  return isComplete(l.instrument, merged) ? portalPagePath(l.id, 'confirm') : portalQuestionsPath(l.id, resumePage(l.instrument, merged));
}

/**
 * A page post answered from the session its page was rendered from, without reading it again:
 * only a whole page (or Back), and only once its save proves the assessment unchanged since.
 * False, with nothing saved or sent, when the post needs a fresh read instead.
 */
async function postOnRecent(deps: Deps, reply: FastifyReply, l: Loaded, page: number, form: Record<string, string>): Promise<boolean> {
  if (!mayVisitPage(l.instrument, l.progress, page)) return false;
  const { answers, missing } = readPageAnswers(l.instrument, page, form);
  const back = form.nav === 'back';
  if (missing.length > 0 && !back) return false;
  if (!(await saveIfUnchanged(deps.store, l.id, page, answers, l.session.assessment))) return false;
  redirect(reply, back ? portalQuestionsPath(l.id, Math.max(1, page - 1)) : nextAfter(l, page, answers));
  return true;
}

export function questionRoutes(app: App, deps: Deps): void {
  app.get('/:id/questions/:page', async (request, reply) => {
    const l = await load(deps, request, reply);
    if (!l) return reply;
    const page = pageNumber((request.params as { page: string }).page);
    if (!mayVisitPage(l.instrument, l.progress, page)) return toCurrentStep(reply, l);
    recentSessions(deps.store).remember(l.session);
    return renderPage(reply, l, page, reply.generateCsrf({ userInfo: l.id }), l.session.answers);
  });

  app.post('/:id/questions/:page', { preHandler: app.csrfProtection }, async (request, reply) => {
    const form = takeForm(request);
    const page = pageNumber((request.params as { page: string }).page);
    const ctx = pageContext(request, reply);
    const id = (request.params as { id: string }).id;
    // Only the candidate's browser skips the read; any other goes through load's check.
    const recent = recentSessions(deps.store).take(id);
    if (recent && !deps.candidateKeys.holds(request, id, recent.assessment.candidate_key_gen)) recentSessions(deps.store).remember(recent);
    else if (recent && (await postOnRecent(deps, reply, loadedFrom(deps, ctx, recent.assessment.analysis_id, recent), page, form))) return reply;
    const l = await load(deps, request, reply, ctx);
    if (!l) return reply;
    if (!mayVisitPage(l.instrument, l.progress, page)) return toCurrentStep(reply, l);
    const { answers, missing } = readPageAnswers(l.instrument, page, form);

    if (form.nav === 'back') {
      await saveAnswers(deps.store, l.id, page, answers, l.session.assessment);
      return redirect(reply, portalQuestionsPath(l.id, Math.max(1, page - 1)));
    }
    if (missing.length > 0) {
      await saveAnswers(deps.store, l.id, page, answers, l.session.assessment);
      const merged = new Map([...l.session.answers, ...answers]);
      return renderPage(reply, l, page, reply.generateCsrf({ userInfo: l.id }), merged, new Set(missing));
    }
    const saved = await saveAnswers(deps.store, l.id, page, answers, l.session.assessment);
    if (saved === 'closed') return redirect(reply, portalStartPath(l.id));
    return redirect(reply, nextAfter(l, page, answers));
  });

  app.get('/:id/confirm', async (request, reply) => {
    const l = await loadAtStep(deps, request, reply, 'confirm');
    if (!l) return reply;
    const view = confirmPage(l.ctx, portalPagePath(l.id, 'confirm'), reply.generateCsrf({ userInfo: l.id }), l.instrument.items.length);
    return sendPage(reply, view, { formTarget: l.session.assessment.return_url });
  });

  app.post('/:id/confirm', { preHandler: app.csrfProtection }, async (request, reply) => {
    const nav = takeForm(request).nav;
    const l = await loadAtStep(deps, request, reply, 'confirm');
    if (!l) return reply;
    if (nav !== 'finish') return redirect(reply, portalQuestionsPath(l.id, pageCount(l.instrument)));
    const score = (all: ReadonlyMap<string, number>, pageMs: ReadonlyMap<number, number>, norm?: Parameters<typeof scoreCompletion>[4]) =>
      scoreCompletion(l.instrument, deps.competences, all, pageMs, norm);
    const done = await deps.webhooks.completeWith(l.session.assessment.tenant_id, (claimer) =>
      completeAssessment(deps.store, l.id, score, claimer, { contentVersion: l.instrument.version, language: l.ctx.lang }),
    );
    if (done.outcome === 'incomplete') return redirect(reply, portalQuestionsPath(l.id, resumePage(l.instrument, l.session.answers)));
    if (done.outcome === 'closed') return redirect(reply, portalStartPath(l.id));
    if (done.outcome === 'completed' && done.candidatePage) return redirect(reply, portalPagePath(l.id, 'feedback'));
    return redirect(reply, afterwards(l));
  });

  app.get('/:id/done', async (request, reply) => {
    const l = await load(deps, request, reply);
    if (!l) return reply;
    if (l.step.kind !== 'completed') return toCurrentStep(reply, l);
    const returnUrl = l.session.assessment.return_url;
    return sendPage(reply, returnUrl ? completedPage(l.ctx, returnUrl) : closeTabPage(l.ctx));
  });
}
