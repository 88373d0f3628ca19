import type { App, Deps } from '../../app-types.js';
import { CONSOLE_EXPORT_PATH, CONSOLE_LIST_PATH, CONSOLE_PREFIX } from '../../domain/console-paths.js';
import { recordAudit } from '../audit-store.js';
import { allow, signedIn } from '../guard.js';
import { exportCandidateList } from '../list-export.js';
import { candidateListPage } from '../list-page.js';
import { parseListQuery, type InstrumentRef } from '../list-query.js';
import { LIST_TEXTS } from '../list-texts.js';
import { consoleContext, sendPage } from '../render.js';
import { layout } from '../views.js';

const local = (path: string) => path.slice(CONSOLE_PREFIX.length);

/** The query string as the browser sent it, so the list reads exactly what its links wrote. */
function paramsOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}

/** GET /console/candidates for every role; its CSV export for those who may export, audited. */
export function candidateRoutes(app: App, deps: Deps): void {
  const instruments: InstrumentRef[] = [...deps.instruments.values()].map((i) => ({ assessmentType: i.assessmentType, code: i.code }));

  app.get(local(CONSOLE_LIST_PATH), { preHandler: signedIn(deps) }, async (request, reply) => {
    const ctx = consoleContext(request, reply);
    const user = request.consoleUser!;
    const body = await candidateListPage(deps.store, user.tenantId, paramsOf(request.url), {
      instruments,
      lang: ctx.lang,
      canExport: user.role !== 'viewer',
      canInvite: user.role !== 'viewer',
      extra: ['lang'],
    });
    return sendPage(reply, layout(ctx, LIST_TEXTS[ctx.lang].title, body));
  });

  app.get(local(CONSOLE_EXPORT_PATH), { preHandler: [signedIn(deps), allow('admin', 'recruiter')] }, async (request, reply) => {
    const user = request.consoleUser!;
    const { query } = parseListQuery(paramsOf(request.url), instruments, ['lang']);
    await recordAudit(deps.store, { tenantId: user.tenantId, userId: user.id, action: 'export', address: request.ip });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="candidates.csv"')
      .header('cache-control', 'no-store')
      .send(exportCandidateList(deps, user.tenantId, query, instruments));
  });
}
