import type { App, Deps } from '../../app-types.js';
import type { Scored } from '../../domain/results/result.js';
import { band } from '../../reports/interpretations.js';
import { resultOf } from '../../reports/render.js';
import { findAssessment } from '../../store/assessments.js';
import { decideRelease } from '../../store/portal.js';
import { portalSettings } from '../../store/portal-settings.js';
import { takeForm } from '../form.js';
import { redirect, sendPage } from '../render.js';
import { load, toCurrentStep, type Loaded } from '../session.js';
import { feedbackPage } from '../views/feedback.js';

/** Where a candidate goes after the questionnaire: the ReturnUrl, or the page that asks them to close the tab. */
export function afterwards(l: Pick<Loaded, 'id' | 'session'>): string {
  return l.session.assessment.return_url ?? `/anonymous/analyse/${l.id}/done`;
}

/** The portal offers this candidate a feedback page: feedback, a release question, or both. */
export async function offersFeedback(deps: Deps, l: Loaded): Promise<boolean> {
  const s = await portalSettings(deps.store.db, deps.store.dialect, l.session.assessment.api_key_id);
  return s.candidate_feedback === 1 || s.candidate_release === 1 || l.session.assessment.results_release !== null;
}

const strength = (s: Scored) => s.sten ?? s.raw;

export function feedbackRoutes(app: App, deps: Deps): void {
  app.get('/:id/feedback', async (request, reply) => {
    const l = await load(deps, request, reply);
    if (!l) return reply;
    if (l.step.kind !== 'completed' || !(await offersFeedback(deps, l))) return toCurrentStep(reply, l);
    // The scores are not in the session: the feedback page reads the whole row.
    const row = await findAssessment(deps.store, l.id);
    const result = row && (await resultOf(deps, row, l.ctx.lang));
    if (!result) return toCurrentStep(reply, l);
    const ranked = [...result.scales].sort((a, b) => strength(b) - strength(a));
    const ids = new Map(l.instrument.scales.map((s) => [s.number, s.id]));
    const text = (s: Scored) => ({ scale: s, text: deps.interpretations.scales[ids.get(s.id)!]!.feedback[band(s)][l.ctx.lang] });
    const state = l.session.assessment.results_release;
    return sendPage(
      reply,
      feedbackPage(l.ctx, {
        most: ranked.slice(0, 3).map(text),
        least: ranked.slice(-2).reverse().map(text),
        release: state ? { state, action: `/anonymous/analyse/${l.id}/feedback`, csrf: reply.generateCsrf({ userInfo: l.id }) } : null,
        next: afterwards(l),
      }),
      { formTarget: l.session.assessment.return_url },
    );
  });

  app.post('/:id/feedback', { preHandler: app.csrfProtection }, async (request, reply) => {
    const decision = takeForm(request).decision;
    const l = await load(deps, request, reply);
    if (!l) return reply;
    if (l.step.kind !== 'completed') return toCurrentStep(reply, l);
    if (decision === 'release' || decision === 'decline') await decideRelease(deps.store, l.id, decision === 'release');
    return redirect(reply, afterwards(l));
  });
}
