import type { App, Deps } from '../../app-types.js';
import type { Scored } from '../../measurement/result.js';
import { band } from '../../reports/interpretations.js';
import { bandSpan, spanLead } from '../../reports/band-words.js';
import { resultOf } from '../../reports/render.js';
import { findAssessment } from '../../assessments/assessments-store.js';
import { decideRelease } from '../../assessments/release-store.js';
import { takeForm } from '../../http/forms.js';
import { redirect, sendPage } from '../render.js';
import { load, toCurrentStep } from '../session.js';
import { afterwards, isCandidate, offersFeedback } from '../feedback-offer.js';
import { TEXTS } from '../texts.js';
import { feedbackPage } from '../views/feedback.js';
import { messagePage } from '../views/pages.js';
import { portalPagePath } from '../../domain/portal-paths.js';

const strength = (s: Scored) => s.sten ?? s.raw;
const DECISIONS = new Set(['release', 'decline', 'withdraw']);

export function feedbackRoutes(app: App, deps: Deps): void {
  app.get('/:id/feedback', async (request, reply) => {
    const l = await load(deps, request, reply);
    if (!l) return reply;
    if (l.step.kind !== 'completed' || !(await offersFeedback(deps, l))) return toCurrentStep(reply, l);
    // The AssessmentUrl is the employer's too: without the candidate's credential, the finished page only.
    if (!isCandidate(deps, request, l)) return toCurrentStep(reply, l);
    // The scores are not in the session: the feedback page reads the whole row.
    const row = await findAssessment(deps.store, l.id);
    const result = row && (await resultOf(deps, row, l.ctx.lang));
    if (!result) return toCurrentStep(reply, l);
    const ranked = [...result.scales].sort((a, b) => strength(b) - strength(a));
    const scales = new Map(l.instrument.scales.map((s) => [s.number, s]));
    // Without a norm group nothing is compared with anyone: the scale's own description instead.
    // Where the 90% band crosses into another band, a sentence saying so comes first.
    const text = (s: Scored) => {
      const b = band(s);
      const span = bandSpan(s);
      const scale = scales.get(s.id)!;
      const own = b && deps.interpretations.scales[scale.id] ? deps.interpretations.scales[scale.id]!.feedback[b][l.ctx.lang] : scale.description[l.ctx.lang];
      const lead = b && span ? spanLead(span, b, l.ctx.lang, 'feedback') : '';
      return { scale: s, text: lead ? `${lead} ${own}` : own };
    };
    const state = l.session.assessment.results_release;
    return sendPage(
      reply,
      feedbackPage(l.ctx, {
        most: ranked.slice(0, 3).map(text),
        least: ranked.slice(-2).reverse().map(text),
        release: state ? { state, action: portalPagePath(l.id, 'feedback'), csrf: reply.generateCsrf({ userInfo: l.id }) } : null,
        code: deps.candidateKeys.code(l.id, l.session.assessment.candidate_key_gen),
        norms: !result.normGroup ? 'none' : result.normGroup.illustrative ? 'illustrative' : 'real',
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
    if (!isCandidate(deps, request, l)) {
      const t = TEXTS[l.ctx.lang];
      return sendPage(reply, messagePage(l.ctx, t.completedTitle, t.completedText), { status: 403 });
    }
    if (decision !== undefined && DECISIONS.has(decision) && (await decideRelease(deps.store, l.id, decision as 'release' | 'decline' | 'withdraw'))) {
      deps.webhooks.wake();
    }
    // After a withdrawal the candidate sees their page again, with the state it now has.
    return redirect(reply, decision === 'withdraw' ? portalPagePath(l.id, 'feedback') : afterwards(l));
  });
}
