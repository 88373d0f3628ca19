import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGES, type Language } from '../measurement/instruments/types.js';
import type { Html } from '../platform/html.js';
import { hasPlainHost } from '../assessments/rules.js';
import { negotiateLanguage } from '../domain/language.js';
import type { PageContext } from './views/layout.js';

const LANG_COOKIE = 'assay_lang';

/**
 * The portal's own CSP: scripts and styles from this origin only, no inline script, no framing.
 * Chrome applies form-action to the redirect after a form post, so the page whose form
 * finishes the assessment also allows the ReturnUrl's origin.
 */
export function portalCsp(formTarget?: string | null): string {
  const formAction = ["'self'"];
  // A ReturnUrl stored before host names were checked may carry characters a header must not.
  if (formTarget) {
    const target = new URL(formTarget);
    if (hasPlainHost(target)) formAction.push(target.origin);
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** ?lang= (remembered in a cookie), then the cookie, then Accept-Language. */
export function pageContext(request: FastifyRequest, reply: FastifyReply): PageContext {
  const query = (request.query as Record<string, unknown> | undefined)?.lang;
  let lang: Language;
  if (typeof query === 'string' && (LANGUAGES as readonly string[]).includes(query)) {
    lang = query as Language;
    // The front door and the site's 404 sit outside the portal's cookie plugin: there the choice holds for one page.
    if (typeof reply.setCookie === 'function')
      reply.setCookie(LANG_COOKIE, lang, { path: '/', maxAge: 365 * 24 * 3600, sameSite: 'lax', httpOnly: true, secure: 'auto' });
  } else {
    // Undefined when a request is refused before the cookie plugin ran (overload).
    const cookie = request.cookies?.[LANG_COOKIE];
    lang = cookie === 'nl' || cookie === 'en' ? cookie : negotiateLanguage(request.headers['accept-language']);
  }
  return { lang, path: ownPath(request.url) };
}

/**
 * The request's path, for the language link to repeat: always one leading slash. A request line
 * may name another host (`GET http://host/...`) or start `//host/...` (or `/\host`, which browsers
 * read the same), and the link would then take the candidate to that site.
 */
function ownPath(url: string): string {
  const path = url.split('?')[0]!;
  return path.startsWith('/') ? path.replace(/^[/\\]+/, '/') : '/';
}

export function sendPage(reply: FastifyReply, page: Html, opts: { status?: number; formTarget?: string | null } = {}): FastifyReply {
  return reply
    .code(opts.status ?? 200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', portalCsp(opts.formTarget))
    .header('vary', 'Accept-Language, Cookie')
    .send(page.value);
}

export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(location, 303);
}
