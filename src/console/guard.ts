import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../app-types.js';
import { CONSOLE_LOGIN_PATH } from '../domain/console-paths.js';
import type { ConsoleRole } from '../tenancy/console-users.js';
import { consoleContext, redirect, sendPage } from './render.js';
import { readSession, type ConsoleUser } from './sessions.js';
import { TEXTS } from './texts.js';
import { messagePage } from './views.js';

export type { ConsoleUser } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The console's signed-in user, set by `signedIn`; null elsewhere. */
    consoleUser: ConsoleUser | null;
  }
}

type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * A console page's first preHandler: loads the session (its idle time refreshed) into
 * `request.consoleUser`, or sends the browser to the sign-in page.
 */
export function signedIn(deps: Pick<Deps, 'store' | 'config'>): PreHandler {
  return async (request, reply) => {
    const user = await readSession(request, deps);
    if (!user) return redirect(reply, CONSOLE_LOGIN_PATH);
    request.consoleUser = user;
  };
}

/** After `signedIn`: only these roles pass; any other gets 403 and the page's handler never runs. */
export function allow(...roles: ConsoleRole[]): PreHandler {
  return async (request, reply) => {
    const role = request.consoleUser?.role;
    if (role && roles.includes(role)) return;
    const ctx = consoleContext(request, reply);
    const t = TEXTS[ctx.lang];
    return sendPage(reply, messagePage(ctx, t.forbiddenTitle, t.forbiddenText), 403);
  };
}
