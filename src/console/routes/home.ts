import type { App, Deps } from '../../app-types.js';
import { signedIn } from '../guard.js';
import { consoleContext, sendPage } from '../render.js';
import { csrfBinding } from '../sessions.js';
import { homePage } from '../views.js';

/** GET /console: who is signed in, in which role, and the way out. The console's pages hang off it. */
export function homeRoutes(app: App, deps: Deps): void {
  app.get('/', { preHandler: signedIn(deps) }, async (request, reply) => {
    const ctx = consoleContext(request, reply);
    return sendPage(reply, homePage(ctx, request.consoleUser!, reply.generateCsrf({ userInfo: csrfBinding(request) })));
  });
}
