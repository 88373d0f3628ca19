import type { App, Deps } from '../../app-types.js';
import { retentionDays } from '../../tenancy/credentials-store.js';
import { markStarted } from '../session-store.js';
import { takeForm } from '../../http/forms.js';
import { redirect, sendPage } from '../render.js';
import { load, stepUrl } from '../session.js';
import { completedPage, startPage } from '../views/pages.js';
import { currentStep } from '../../measurement/instruments/flow.js';
import { isCandidate, offersFeedback } from '../feedback-offer.js';
import { TEXTS } from '../texts.js';
import { portalStartPath, portalPagePath } from '../../domain/portal-paths.js';

export function startRoutes(app: App, deps: Deps): void {
  app.get('/start/:id', async (request, reply) => {
    const l = await load(deps, request, reply);
    if (!l) return reply;
    if (l.step.kind === 'completed') {
      // Only the candidate's own browser is offered their results; anyone else holding the link, a way to type the code.
      const t = TEXTS[l.ctx.lang];
      const own = isCandidate(deps, request, l);
      const link = (await offersFeedback(deps, l))
        ? own
          ? { href: portalPagePath(l.id, 'feedback'), label: t.seeResults }
          : { href: portalPagePath(l.id, 'code'), label: t.haveCode }
        : undefined;
      return sendPage(reply, completedPage(l.ctx, l.session.assessment.return_url, link));
    }
    const csrf = reply.generateCsrf({ userInfo: l.id });
    const days = await retentionDays(deps.store, l.session.assessment.tenant_id, deps.config.lifecycle.retentionDays);
    return sendPage(reply, startPage(l.ctx, l.instrument, portalStartPath(l.id), csrf, l.step.kind !== 'start', days));
  });

  app.post('/start/:id', { preHandler: app.csrfProtection }, async (request, reply) => {
    takeForm(request);
    const l = await load(deps, request, reply);
    if (!l) return reply;
    if (l.step.kind === 'start') {
      // Of two browsers pressing Start at once, the one that started it becomes the candidate's; the other is asked for the code.
      if (!(await markStarted(deps.store, l.id))) return redirect(reply, portalStartPath(l.id));
      deps.candidateKeys.grant(reply, l.id, l.session.assessment.candidate_key_gen);
      return redirect(reply, stepUrl(l.id, currentStep(l.instrument, { ...l.progress, status: 'Started' })));
    }
    return redirect(reply, stepUrl(l.id, l.step));
  });
}
