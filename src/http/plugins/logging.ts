import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from '../../config.js';
import { REDACTED, redactToken } from '../../security/tokens.js';
import { PORTAL_PREFIX, portalStartPath } from '../../domain/portal-paths.js';
import { CONSOLE_EXPORT_PATH, CONSOLE_LIST_PATH, consoleSetPasswordPath } from '../../domain/console-paths.js';

// Each of these is followed by an AnalysisId, the candidate's link to the portal (the longer
// portal prefix first, so that "start" is not taken for the token); and a console set-password link's token.
const TOKEN_AFTER = [portalStartPath(''), `${PORTAL_PREFIX}/`, consoleSetPasswordPath(''), '/anonymous/assessment/', '/candidateanalysisresult/', '/reports/'];
// An ExternalId follows: personal data (docs/PRIVACY.md), picked by the ATS, so short or guessable
// ones are common and a kept prefix would give them away. All after it goes: an id sent with a raw
// '/', '?' or '#' runs past its segment.
const EXTERNAL_ID_AFTER = '/api/anonymous/candidate/';
// The list's query holds an ExternalId and a cursor: its parameters keep their names, never their values.
const LIST_QUERY = '/api/anonymous/assessments?';
// The console's list: a search holds names and e-mail addresses, and a candidate's page an ExternalId.
const CONSOLE_CANDIDATE = `${CONSOLE_LIST_PATH}/`;
// A report share link's signature is its secret.
const SIG_IN_QUERY = ['?sig=', '&sig='];
// An AnalysisId in a query: Greenhouse polls test_status with it, often.
const TOKEN_IN_QUERY = ['?partner_interview_id=', '&partner_interview_id='];
// The portal's resume link carries a secret of its own after the AnalysisId: all after it goes,
// up to the query, in case a raw '/' runs it past its segment.
const PORTAL = `${PORTAL_PREFIX}/`;
const RESUME = '/resume/';
const QUESTION = 63;
const AMPERSAND = 38;
const HASH = 35;

/** A query's parameter names, each value replaced. */
function namesOnly(query: string): string {
  return query
    .split('&')
    .map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('='))}=${REDACTED}` : pair))
    .join('&');
}

/** The console list's or export's query with names only; a candidate's page without its ExternalId. */
function consoleListUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const kept = path === CONSOLE_LIST_PATH || path === CONSOLE_EXPORT_PATH ? path : path.startsWith(CONSOLE_CANDIDATE) ? CONSOLE_CANDIDATE + REDACTED : path;
  return query === -1 ? kept : `${kept}?${namesOnly(url.slice(query + 1))}`;
}

/** A character of an AnalysisId (base64url). */
function tokenChar(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45 || code === 95;
}

/** `url` with what runs from `start` while `keep` holds replaced by `replacement(that)`. */
function cut(url: string, start: number, keep: (code: number) => boolean, replacement: (part: string) => string): string {
  let end = start;
  while (end < url.length && keep(url.charCodeAt(end))) end++;
  return end === start ? url : url.slice(0, start) + replacement(url.slice(start, end)) + url.slice(end);
}

/**
 * AnalysisIds are bearer capabilities, in a path or in Greenhouse's query: logs keep a prefix to
 * correlate, never the whole token, and never a share link's signature or a resume link's token. Every request's line passes here, so it is plain string
 * searching rather than a regular expression with a `replace` callback, which cost far more.
 */
export function redactUrl(raw: string): string {
  const url = withUnreservedDecoded(raw);
  const candidate = url.indexOf(EXTERNAL_ID_AFTER);
  if (candidate !== -1 && candidate + EXTERNAL_ID_AFTER.length < url.length) return url.slice(0, candidate + EXTERNAL_ID_AFTER.length) + REDACTED;
  const list = url.indexOf(LIST_QUERY);
  if (list !== -1) return url.slice(0, list + LIST_QUERY.length) + namesOnly(url.slice(list + LIST_QUERY.length));
  if (url.startsWith(CONSOLE_LIST_PATH)) return consoleListUrl(url);
  let redacted = url;
  for (const segment of TOKEN_AFTER) {
    const at = redacted.indexOf(segment);
    if (at === -1) continue;
    const next = cut(redacted, at + segment.length, tokenChar, redactToken);
    if (next !== redacted) {
      redacted = next;
      break;
    }
  }
  const portal = redacted.indexOf(PORTAL);
  const resume = portal === -1 ? -1 : redacted.indexOf(RESUME, portal + PORTAL.length);
  if (resume !== -1)
    redacted = cut(
      redacted,
      resume + RESUME.length,
      (code) => code !== QUESTION && code !== HASH,
      () => REDACTED,
    );
  // Every occurrence: a repeated parameter reaches the route as a list.
  for (const marker of SIG_IN_QUERY)
    redacted = cutEach(
      redacted,
      marker,
      (code) => code !== AMPERSAND && code !== HASH,
      () => REDACTED,
    );
  for (const marker of TOKEN_IN_QUERY) redacted = cutEach(redacted, marker, tokenChar, redactToken);
  return redacted;
}

/** `cut` after each occurrence of `marker`. */
function cutEach(url: string, marker: string, keep: (code: number) => boolean, replacement: (part: string) => string): string {
  let redacted = url;
  for (let at = redacted.indexOf(marker); at !== -1; at = redacted.indexOf(marker, at + marker.length)) {
    redacted = cut(redacted, at + marker.length, keep, replacement);
  }
  return redacted;
}

/**
 * The router decodes percent-encoded letters, so '/api/anonymous/%61ssessment/<token>' reaches the
 * assessment route: such characters are decoded first, or the search above would not find the
 * segment and the whole token would be logged. Only URLs with a '%' pay for it.
 */
function withUnreservedDecoded(url: string): string {
  if (!url.includes('%')) return url;
  return url.replace(/%([0-9A-Fa-f]{2})/g, (escaped, hex: string) => {
    const code = parseInt(hex, 16);
    return tokenChar(code) || code === 46 || code === 126 ? String.fromCharCode(code) : escaped;
  });
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Honour a sane incoming X-Request-Id so callers can correlate; otherwise mint one. */
export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Log lines gather for one turn of the event loop and go out in one write. A write per line
 * cost more than anything else on the API's hot path, and an asynchronous write costs a hand-off
 * to the thread pool and back, which on a busy server cost more than the write itself. The write
 * is synchronous, as Node's own stdout is for files and pipes on Linux: one small write per turn.
 */
export function logDestination(dest = 1): { stream: pino.DestinationStream; flush(): void } {
  const out = pino.destination({ dest, sync: true });
  let pending = '';
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    if (pending === '') return;
    out.write(pending);
    pending = '';
  };
  const atExit = () => {
    try {
      drain();
      out.flushSync();
    } catch {
      // Nothing left to do with log lines at exit.
    }
  };
  process.once('exit', atExit);
  let closed = false;
  return {
    stream: {
      write(line: string) {
        // After the server closed, the last lines ("stopped") go out at once: the process may exit next.
        if (closed) {
          out.write(line);
          return;
        }
        pending += line;
        if (!scheduled) {
          scheduled = true;
          setImmediate(drain);
        }
      },
    },
    // When the server closes: its lines go out now, later ones as they come, and the exit hook is no longer needed.
    flush() {
      closed = true;
      process.off('exit', atExit);
      atExit();
    },
  };
}

/**
 * pino options. The request serializer writes method, redacted URL and IP only, never
 * headers or bodies. The redact list is the second line of defence, should anything log an
 * object carrying credentials.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream: pino.DestinationStream): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: config.logLevel,
    stream,
    // No `req.headers.*` paths: the req serializer never writes headers, and a redacted key
    // costs a copy of its value on every line.
    // A PostgreSQL error's detail quotes the key values of a violated constraint: an ExternalId, say.
    redact: {
      paths: ['headers.authorization', 'headers["api-key"]', 'headers.cookie', 'password', 'apiKey', 'err.detail'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

/**
 * A routed request carrying an ExternalId logs its route's pattern: the path may spell the route
 * in percent-encodings the router decodes (`%63andidate`), which redactUrl's plain search misses.
 */
function logUrl(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  return route !== undefined && route.includes(':ExternalId') ? route.replace(':ExternalId', REDACTED) : redactUrl(request.url);
}

/**
 * One log line per request, written when it completes: half the cost of Fastify's two. Its fields
 * are flat: method, redacted URL, IP, status and milliseconds.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: logUrl(request), ip: request.ip, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
