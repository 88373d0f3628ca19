import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, Deps } from '../../app-types.js';
import { cancelAssessment } from '../../assessments/cancel-assessment.js';
import { readCandidate, type CandidateRecord } from '../../assessments/views.js';
import { CONSOLE_LIST_PATH, CONSOLE_PREFIX } from '../../domain/console-paths.js';
import { takeForm } from '../../http/forms.js';
import { eraseCandidate } from '../../lifecycle/erase.js';
import { resendInvitation } from '../../mail/resend.js';
import { recordAudit, type ConsoleAction } from '../audit-store.js';
import { CANDIDATE_TEXTS } from '../candidate-texts.js';
import { candidatePage, type Outcome } from '../candidate-view.js';
import { allow, signedIn } from '../guard.js';
import { consoleContext, sendPage } from '../render.js';
import { csrfBinding } from '../sessions.js';
import { messagePage } from '../views.js';

const PAGE = `${CONSOLE_LIST_PATH.slice(CONSOLE_PREFIX.length)}/:ExternalId`;

type Req = FastifyRequest<{ Params: { ExternalId: string } }>;

/** A candidate's page for every role; cancel, resend and erase for admins and recruiters, each audited without personal data. */
export function candidatePageRoutes(app: App, deps: Deps): void {
  const codes = new Map([...deps.instruments.values()].map((i) => [i.assessmentType, i.code]));
  const mayAct = [signedIn(deps), allow('admin', 'recruiter'), app.csrfProtection];

  /** Another tenant's candidate and an unknown one read the same. */
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = consoleContext(request, reply);
    const t = CANDIDATE_TEXTS[ctx.lang];
    return sendPage(reply, messagePage(ctx, t.notFoundTitle, t.notFoundText, { href: CONSOLE_LIST_PATH, label: t.backToList }), 404);
  };

  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    record: CandidateRecord,
    extra: { outcome?: Outcome; eraseMismatch?: boolean } = {},
    status = 200,
  ) => {
    const ctx = consoleContext(request, reply);
    const csrf = request.consoleUser!.role === 'viewer' ? null : reply.generateCsrf({ userInfo: csrfBinding(request) });
    return sendPage(reply, candidatePage(ctx, { record, instrumentCodes: codes, csrf, ...extra }), status);
  };

  const audit = (request: FastifyRequest, action: ConsoleAction) =>
    recordAudit(deps.store, { tenantId: request.consoleUser!.tenantId, userId: request.consoleUser!.id, action, address: request.ip });

  const read = (request: Req) => readCandidate(deps, request.consoleUser!, request.params.ExternalId);

  app.get<{ Params: { ExternalId: string } }>(PAGE, { preHandler: signedIn(deps) }, async (request, reply) => {
    const record = await read(request);
    return record ? show(request, reply, record) : notFound(request, reply);
  });

  /** The posted AnalysisId, when it is one of this candidate's assessments. */
  const target = async (request: Req) => {
    const analysisId = takeForm(request).AnalysisId ?? '';
    const record = await read(request);
    return record?.assessments.some((a) => a.analysisId === analysisId) ? { record, analysisId } : undefined;
  };

  app.post<{ Params: { ExternalId: string } }>(`${PAGE}/cancel`, { preHandler: mayAct }, async (request, reply) => {
    const found = await target(request);
    if (!found) return notFound(request, reply);
    const t = CANDIDATE_TEXTS[consoleContext(request, reply).lang];
    const done = await cancelAssessment(deps, request.consoleUser!, found.analysisId);
    if (done.outcome === 'cancelled') await audit(request, 'assessment.cancel');
    const outcome: Outcome = done.outcome === 'cancelled' ? { text: t.cancelled } : { text: t.cannotCancel, problem: true };
    const record = await read(request);
    return record ? show(request, reply, record, { outcome }, done.outcome === 'cancelled' ? 200 : 409) : notFound(request, reply);
  });

  app.post<{ Params: { ExternalId: string } }>(`${PAGE}/resend`, { preHandler: mayAct }, async (request, reply) => {
    const found = await target(request);
    if (!found) return notFound(request, reply);
    const t = CANDIDATE_TEXTS[consoleContext(request, reply).lang];
    const user = request.consoleUser!;
    const r = await resendInvitation(deps, user, found.analysisId, `console:${user.id}`);
    if (r.outcome === 'queued') await audit(request, 'invitation.resend');
    const url = found.record.assessments.find((a) => a.analysisId === found.analysisId)!.assessmentUrl;
    const outcome: Outcome =
      r.outcome === 'queued'
        ? { text: t.resent }
        : r.outcome === 'no-mail'
          ? { text: t.noMail(url), problem: true }
          : r.outcome === 'limited' || r.outcome === 'capped'
            ? { text: t.resendLimited(Math.max(1, Math.ceil(r.retryAfterSeconds / 60))), problem: true }
            : r.outcome === 'in-progress'
              ? { text: t.resendInProgress, problem: true }
              : { text: t.resendClosed, problem: true };
    if (r.outcome === 'limited' || r.outcome === 'capped') reply.header('retry-after', String(r.retryAfterSeconds));
    const status = r.outcome === 'queued' ? 202 : r.outcome === 'no-mail' ? 200 : r.outcome === 'limited' || r.outcome === 'capped' ? 429 : 409;
    const record = await read(request);
    return record ? show(request, reply, record, { outcome }, status) : notFound(request, reply);
  });

  app.post<{ Params: { ExternalId: string } }>(`${PAGE}/erase`, { preHandler: mayAct }, async (request, reply) => {
    const { ExternalId } = request.params;
    const confirm = takeForm(request).confirm ?? '';
    const record = await read(request);
    if (!record) return notFound(request, reply);
    if (confirm.trim() !== ExternalId) return show(request, reply, record, { eraseMismatch: true }, 422);
    const user = request.consoleUser!;
    const erased = await eraseCandidate(deps, ExternalId, { tenantId: user.tenantId, erasedBy: `console:${user.id}`, reason: 'request' });
    if (!erased) return notFound(request, reply);
    await audit(request, 'candidate.erase');
    const ctx = consoleContext(request, reply);
    const t = CANDIDATE_TEXTS[ctx.lang];
    return sendPage(reply, messagePage(ctx, t.erasedTitle, t.erasedText(erased.assessments), { href: CONSOLE_LIST_PATH, label: t.backToList }));
  });
}
