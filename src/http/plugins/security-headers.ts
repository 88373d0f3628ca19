import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers for the given options, worked out once. @fastify/helmet builds a new
 * helmet middleware on every request, a large share of the API's CPU; the
 * headers never change, so Assay runs helmet once and sets the result per response.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * For JSON API responses, the headers OWASP's REST Security Cheat Sheet asks for and nothing
 * that only means something to an HTML page: every header is paid for on every response,
 * by the server and by the client.
 */
export const API_SECURITY_HEADERS = {
  // Responses carry AnalysisIds (bearer links) and scores: no cache may keep them.
  'cache-control': 'no-store',
  ...securityHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
};

/** For everything else (pages, docs, assets): helmet's full set, with a strict CSP the portal replaces with its own. */
export const DEFAULT_SECURITY_HEADERS = securityHeaders({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  frameguard: { action: 'deny' },
});
