import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGES, negotiateLanguage, type Language } from '../domain/language.js';
import type { Html } from '../platform/html.js';

const LANG_COOKIE = 'assay_lang';

/** The console's CSP: styles from this origin, no script at all, forms to itself, no framing. */
export const CONSOLE_CSP = ["default-src 'none'", "style-src 'self'", "img-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"].join(
  '; ',
);

export interface ConsoleContext {
  lang: Language;
  /** This page's path, for the language switcher. */
  path: string;
}

/** ?lang= (remembered in the cookie the portal uses too), then that cookie, then Accept-Language. */
export function consoleContext(request: FastifyRequest, reply: FastifyReply): ConsoleContext {
  const query = (request.query as Record<string, unknown> | undefined)?.lang;
  let lang: Language;
  if (typeof query === 'string' && (LANGUAGES as readonly string[]).includes(query)) {
    lang = query as Language;
    reply.setCookie(LANG_COOKIE, lang, { path: '/', maxAge: 365 * 24 * 3600, sameSite: 'lax', httpOnly: true, secure: 'auto' });
  } else {
    const cookie = request.cookies?.[LANG_COOKIE];
    lang = cookie === 'nl' || cookie === 'en' ? cookie : negotiateLanguage(request.headers['accept-language']);
  }
  // One leading slash always: `//host` would make the language link leave the site.
  const path = request.url.split('?')[0]!.replace(/^[/\\]+/, '/');
  return { lang, path };
}

export function sendPage(reply: FastifyReply, page: Html, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CONSOLE_CSP)
    .header('vary', 'Accept-Language, Cookie')
    .send(page.value);
}

export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(location, 303);
}
