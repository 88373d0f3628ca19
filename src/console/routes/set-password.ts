import type { App, Deps } from '../../app-types.js';
import { CONSOLE_LOGIN_PATH, consoleSetPasswordPath } from '../../domain/console-paths.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem, setPasswordWithLink, userOfLink } from '../../tenancy/console-users.js';
import { takeForm } from '../../http/forms.js';
import { consoleContext, redirect, sendPage, type ConsoleContext } from '../render.js';
import { csrfBinding } from '../sessions.js';
import { TEXTS } from '../texts.js';
import { messagePage, setPasswordPage } from '../views.js';

const linkGone = (ctx: ConsoleContext) => {
  const t = TEXTS[ctx.lang];
  return messagePage(ctx, t.linkInvalidTitle, t.linkInvalidText, { href: CONSOLE_LOGIN_PATH, label: t.signInTitle });
};

/** GET and POST /console/set-password/:token: the one-time link from the CLI (or, later, an admin). */
export function setPasswordRoutes(app: App, deps: Deps): void {
  app.get('/set-password/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const ctx = consoleContext(request, reply);
    const user = await userOfLink(deps.store, token);
    if (!user) return sendPage(reply, linkGone(ctx), 410);
    return sendPage(reply, setPasswordPage(ctx, consoleSetPasswordPath(token), reply.generateCsrf({ userInfo: csrfBinding(request) }), user.email));
  });

  app.post('/set-password/:token', { preHandler: app.csrfProtection }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const password = takeForm(request).password ?? '';
    const ctx = consoleContext(request, reply);
    const t = TEXTS[ctx.lang];
    const problem = passwordProblem(password);
    if (problem) {
      const user = await userOfLink(deps.store, token);
      if (!user) return sendPage(reply, linkGone(ctx), 410);
      const message = problem === 'tooShort' ? t.passwordTooShort(MIN_PASSWORD_LENGTH) : t.passwordTooLong(MAX_PASSWORD_LENGTH);
      const csrf = reply.generateCsrf({ userInfo: csrfBinding(request) });
      return sendPage(reply, setPasswordPage(ctx, consoleSetPasswordPath(token), csrf, user.email, message), 422);
    }
    const user = await setPasswordWithLink(deps.store, token, password, (p) => deps.kdf.hash(p, request.ip), request.ip);
    if (!user) return sendPage(reply, linkGone(ctx), 410);
    return redirect(reply, `${CONSOLE_LOGIN_PATH}?done=password`);
  });
}
