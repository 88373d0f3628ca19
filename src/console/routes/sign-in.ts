import type { App, Deps } from '../../app-types.js';
import { CONSOLE_HOME_PATH, CONSOLE_LOGIN_PATH } from '../../domain/console-paths.js';
import { recordAudit } from '../audit-store.js';
import { takeForm } from '../../http/forms.js';
import { consoleContext, redirect, sendPage } from '../render.js';
import { endSession, readSession, csrfBinding, startSession } from '../sessions.js';
import type { SignInGate } from '../sign-in.js';
import { TEXTS } from '../texts.js';
import { loginPage } from '../views.js';

/** GET and POST /console/login, POST /console/logout. */
export function signInRoutes(app: App, deps: Deps, gate: SignInGate): void {
  app.get('/login', async (request, reply) => {
    if (await readSession(request, deps)) return redirect(reply, CONSOLE_HOME_PATH);
    const ctx = consoleContext(request, reply);
    const t = TEXTS[ctx.lang];
    const query = request.query as Record<string, unknown>;
    const notice = query.done === 'password' ? t.passwordSetDone : query.done === 'signed-out' ? t.signedOut : undefined;
    return sendPage(reply, loginPage(ctx, reply.generateCsrf({ userInfo: csrfBinding(request) }), notice ? { notice } : {}));
  });

  app.post('/login', { preHandler: app.csrfProtection }, async (request, reply) => {
    const form = takeForm(request);
    const email = form.email ?? '';
    const outcome = await gate.attempt(email, form.password ?? '', request.ip);
    if (outcome.ok) {
      await startSession(request, reply, deps, outcome.user.id);
      await recordAudit(deps.store, { tenantId: outcome.user.tenant_id, userId: outcome.user.id, action: 'sign-in', address: request.ip });
      return redirect(reply, CONSOLE_HOME_PATH);
    }
    await recordAudit(deps.store, {
      tenantId: outcome.user?.tenant_id ?? null,
      userId: outcome.user?.id ?? null,
      action: 'sign-in.failed',
      address: request.ip,
    });
    const ctx = consoleContext(request, reply);
    const t = TEXTS[ctx.lang];
    const csrf = reply.generateCsrf({ userInfo: csrfBinding(request) });
    if (outcome.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(outcome.retryAfterSeconds));
      return sendPage(reply, loginPage(ctx, csrf, { email, error: t.signInTooMany(Math.ceil(outcome.retryAfterSeconds / 60)) }), 429);
    }
    return sendPage(reply, loginPage(ctx, csrf, { email, error: t.signInWrong }), 401);
  });

  app.post('/logout', { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = await readSession(request, deps);
    await endSession(request, reply, deps);
    if (user) await recordAudit(deps.store, { tenantId: user.tenantId, userId: user.id, action: 'sign-out', address: request.ip });
    return redirect(reply, `${CONSOLE_LOGIN_PATH}?done=signed-out`);
  });
}
