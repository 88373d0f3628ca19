import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { App, Deps } from '../app-types.js';
import { CONSOLE_PREFIX } from '../domain/console-paths.js';
import { DomainError } from '../domain/errors.js';
import { toErrorResponse } from '../http/errors.js';
import { consoleContext, sendPage } from './render.js';
import { candidatePageRoutes } from './routes/candidate.js';
import { candidateRoutes } from './routes/candidates.js';
import { homeRoutes } from './routes/home.js';
import { inviteRoutes } from './routes/invite.js';
import { setPasswordRoutes } from './routes/set-password.js';
import { signInRoutes } from './routes/sign-in.js';
import { csrfBinding } from './sessions.js';
import { SignInGate } from './sign-in.js';
import { formParser } from './form.js';
import { TEXTS } from './texts.js';
import { messagePage } from './views.js';

const CSRF_ERRORS = new Set(['FST_CSRF_INVALID_TOKEN', 'FST_CSRF_MISSING_SECRET']);
const FORM_BODY_LIMIT = 16 * 1024;

/** The recruiters' console under /console: server-rendered forms, sessions on the server. */
export async function consolePlugin(app: App, deps: Deps): Promise<void> {
  await app.register(cookie);
  app.removeAllContentTypeParsers();
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT, parser: formParser });
  // Each form's token is bound to the browser's session (before sign-in, to none) and dated.
  await app.register(csrf, {
    cookieKey: 'assay_console_csrf',
    cookieOpts: { path: CONSOLE_PREFIX, sameSite: 'strict', httpOnly: true, secure: 'auto' },
    getUserInfo: (request) => csrfBinding(request),
    csrfOpts: { hmacKey: deps.secretBox.derive('console-csrf'), validity: deps.config.console.sessionMaxMs },
    getToken: (request) => {
      const token = (request.body as Record<string, unknown> | undefined)?._csrf;
      return typeof token === 'string' ? token : undefined;
    },
  });
  app.decorateRequest('consoleUser', null);

  // A form posted from another site is refused whatever its token: the console's forms post to themselves.
  app.addHook('onRequest', async (request, reply) => {
    const site = request.headers['sec-fetch-site'];
    if (request.method !== 'POST' || site === undefined || site === 'same-origin') return;
    const ctx = consoleContext(request, reply);
    const t = TEXTS[ctx.lang];
    return sendPage(reply, messagePage(ctx, t.expiredTitle, t.expiredText), 403);
  });

  app.setErrorHandler((err, request, reply) => {
    const ctx = consoleContext(request, reply);
    const t = TEXTS[ctx.lang];
    const code = (err as { code?: string }).code;
    if (code && CSRF_ERRORS.has(code)) return sendPage(reply, messagePage(ctx, t.expiredTitle, t.expiredText), 403);
    const { status, body } = toErrorResponse(err);
    const retryAfter = body.error.innererror.retryAfterSeconds;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    if (status >= 500) request.log.error({ err }, 'console request failed');
    const busy = status === 429 || (err instanceof DomainError && err.code === 'ServiceUnavailable');
    return sendPage(reply, busy ? messagePage(ctx, t.tooManyTitle, t.tooManyText) : messagePage(ctx, t.errorTitle, t.errorText), status);
  });
  app.setNotFoundHandler((request, reply) => {
    const ctx = consoleContext(request, reply);
    const t = TEXTS[ctx.lang];
    return sendPage(reply, messagePage(ctx, t.notFoundTitle, t.notFoundText), 404);
  });

  const gate = new SignInGate(deps.store, deps.kdf);
  signInRoutes(app, deps, gate);
  setPasswordRoutes(app, deps);
  homeRoutes(app, deps);
  candidateRoutes(app, deps);
  candidatePageRoutes(app, deps);
  inviteRoutes(app, deps);
}
