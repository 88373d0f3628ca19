import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../db/database.js';
import { CONSOLE_PREFIX } from '../domain/console-paths.js';
import { newSecretToken, sha256 } from '../security/tokens.js';
import type { ConsoleRole } from '../tenancy/console-users.js';
import { deleteSession, findSession, insertSession, touchSession } from './session-store.js';

/** Who is signed in, as later pages read it from `request.consoleUser`. */
export interface ConsoleUser {
  id: string;
  tenantId: string;
  email: string;
  role: ConsoleRole;
}

/** Over HTTPS the cookie is `__Host-` (Secure, Path=/, no Domain): no sibling subdomain can set or shadow it. */
export const SECURE_SESSION_COOKIE = '__Host-assay_console';
/** Over plain HTTP (a loopback or a lab), where a browser refuses the prefix. */
export const PLAIN_SESSION_COOKIE = 'assay_console';

/** The session's last request is written at most this often: a page view is not a write every time. */
const TOUCH_EVERY_MS = 60_000;

type SessionDeps = { store: Store; config: Pick<Config, 'console'> };

/** HTTPS as the app sees it: the connection's own, or X-Forwarded-Proto from a proxy TRUST_PROXY names. */
const secure = (request: FastifyRequest) => request.protocol === 'https';

function cookieName(request: FastifyRequest): string {
  return secure(request) ? SECURE_SESSION_COOKIE : PLAIN_SESSION_COOKIE;
}

/** The session id this request carries, or ''. */
export function sessionId(request: FastifyRequest): string {
  return request.cookies?.[cookieName(request)] ?? '';
}

/** What a form's CSRF token is bound to: the browser's session, or '-' before sign-in (the library refuses an empty one). */
export function csrfBinding(request: FastifyRequest): string {
  return sessionId(request) || '-';
}

/** A new session, under a new id, for a user who just proved their password. */
export async function startSession(request: FastifyRequest, reply: FastifyReply, deps: SessionDeps, userId: string): Promise<void> {
  const id = newSecretToken();
  const now = Date.now();
  const { sessionIdleMs, sessionMaxMs } = deps.config.console;
  await insertSession(deps.store, {
    idHash: sha256(id),
    userId,
    at: new Date(now).toISOString(),
    expiresAt: new Date(now + sessionMaxMs).toISOString(),
    idleBefore: new Date(now - sessionIdleMs).toISOString(),
  });
  const https = secure(request);
  reply.setCookie(cookieName(request), id, {
    path: https ? '/' : CONSOLE_PREFIX,
    httpOnly: true,
    sameSite: 'lax',
    secure: https,
    maxAge: Math.floor(sessionMaxMs / 1000),
  });
}

/** The signed-in user, with the session's idle time refreshed; undefined when there is no live session. */
export async function readSession(request: FastifyRequest, deps: SessionDeps): Promise<ConsoleUser | undefined> {
  const id = sessionId(request);
  if (!id) return undefined;
  const idHash = sha256(id);
  const row = await findSession(deps.store, idHash);
  if (!row) return undefined;
  const now = Date.now();
  const seen = Date.parse(row.seen_at);
  if (Date.parse(row.expires_at) <= now || now - seen > deps.config.console.sessionIdleMs) {
    await deleteSession(deps.store, idHash);
    return undefined;
  }
  if (now - seen >= Math.min(TOUCH_EVERY_MS, deps.config.console.sessionIdleMs / 10)) await touchSession(deps.store, idHash, new Date(now).toISOString());
  return { id: row.user_id, tenantId: row.tenant_id, email: row.email, role: row.role };
}

/** Ends the session on the server and clears the cookie. */
export async function endSession(request: FastifyRequest, reply: FastifyReply, deps: SessionDeps): Promise<void> {
  const id = sessionId(request);
  if (id) await deleteSession(deps.store, sha256(id));
  const https = secure(request);
  reply.clearCookie(cookieName(request), { path: https ? '/' : CONSOLE_PREFIX, httpOnly: true, sameSite: 'lax', secure: https });
}
