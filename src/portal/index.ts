import { join } from 'node:path';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { App, Deps } from '../app-types.js';
import { toErrorResponse } from '../http/errors.js';
import { DomainError } from '../domain/errors.js';
import { ROOT } from '../platform/paths.js';
import { PORTAL_BODY_LIMIT } from '../platform/limits.js';
import { formParser } from './form.js';
import { pageContext, sendPage } from './render.js';
import { brandRoutes } from './routes/brand.js';
import { codeRoutes } from './routes/code.js';
import { detailsRoutes } from './routes/details.js';
import { feedbackRoutes } from './routes/feedback.js';
import { questionRoutes } from './routes/questions.js';
import { startRoutes } from './routes/start.js';
import { TEXTS } from './texts.js';
import { messagePage, notFoundPage } from './views/pages.js';
import { portalStartPath } from '../domain/portal-paths.js';

const CSRF_ERRORS = new Set(['FST_CSRF_INVALID_TOKEN', 'FST_CSRF_MISSING_SECRET']);

/** The candidate's pages under /anonymous/analyse: plain HTML forms, server-side state. */
export async function portalPlugin(app: App, deps: Deps): Promise<void> {
  await app.register(cookie);
  // Forms only: a JSON or text body is not something the portal's pages send (415).
  app.removeAllContentTypeParsers();
  const maxItemsPerPage = Math.max(...[...deps.instruments.values()].map((i) => i.itemsPerPage));
  await app.register(formbody, { bodyLimit: PORTAL_BODY_LIMIT, parser: formParser(maxItemsPerPage) });
  await app.register(csrf, {
    cookieKey: 'assay_csrf',
    cookieOpts: { path: '/anonymous', sameSite: 'strict', httpOnly: true, secure: 'auto' },
    // Tokens are bound to the assessment in the URL, so one cannot be replayed on another.
    getUserInfo: (request) => (request.params as { id?: string }).id ?? '',
    // Dated, so a token copied out of a page does not work for good; a page left open longer
    // gets the "please try again" page, which leads back to where the candidate was.
    csrfOpts: { hmacKey: deps.secretBox.derive('csrf'), validity: deps.config.portalFormTtlMs },
    getToken: (request) => {
      const token = (request.body as Record<string, unknown> | undefined)?._csrf;
      return typeof token === 'string' ? token : undefined;
    },
  });

  // A form posted from another site, even a sibling subdomain that could plant a CSRF cookie, is
  // refused: browsers say where a request comes from, and the portal's forms post to themselves.
  app.addHook('onRequest', async (request, reply) => {
    const site = request.headers['sec-fetch-site'];
    if (request.method !== 'POST' || site === undefined || site === 'same-origin') return;
    const ctx = pageContext(request, reply);
    const t = TEXTS[ctx.lang];
    return sendPage(reply, messagePage(ctx, t.errorTitle, t.errorText), { status: 403 });
  });

  app.setErrorHandler((err, request, reply) => {
    const ctx = pageContext(request, reply);
    const t = TEXTS[ctx.lang];
    const code = (err as { code?: string }).code;
    if (code && CSRF_ERRORS.has(code)) {
      const id = (request.params as { id?: string }).id ?? '';
      return sendPage(reply, messagePage(ctx, t.expiredTitle, t.expiredText, { href: portalStartPath(id), label: t.continueButton }), {
        status: 403,
      });
    }
    const { status, body } = toErrorResponse(err);
    const retryAfter = body.error.innererror.retryAfterSeconds;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    if (status === 503) request.log.warn({ err }, 'portal request refused: service unavailable');
    else if (status >= 500) request.log.error({ err }, 'portal request failed');
    // Shed load (a DomainError) reads "busy"; a database outage, also 503, reads as an error.
    const shed = err instanceof DomainError && err.code === 'ServiceUnavailable';
    const page =
      status === 429
        ? messagePage(ctx, t.tooManyTitle, t.tooManyText)
        : shed
          ? messagePage(ctx, t.busyTitle, t.busyText)
          : messagePage(ctx, t.errorTitle, t.errorText);
    return sendPage(reply, page, { status });
  });
  app.setNotFoundHandler((request, reply) => sendPage(reply, notFoundPage(pageContext(request, reply)), { status: 404 }));

  startRoutes(app, deps);
  detailsRoutes(app, deps);
  questionRoutes(app, deps);
  feedbackRoutes(app, deps);
  codeRoutes(app, deps);
  brandRoutes(app, deps);
}

/** CSS and the progressive-enhancement script; the pages work without the latter. */
export async function portalAssets(app: App): Promise<void> {
  await app.register(fastifyStatic, {
    root: join(ROOT, 'src', 'portal', 'static'),
    prefix: '/assets/',
    maxAge: 3_600_000,
    index: false,
    list: false,
  });
}
