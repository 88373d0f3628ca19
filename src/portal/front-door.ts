import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import type { Instrument } from '../measurement/instruments/types.js';
import { errorBody } from '../http/errors.js';
import { html } from '../platform/html.js';
import { pageContext, sendPage } from './render.js';
import { layout } from './views/layout.js';
import { messagePage } from './views/pages.js';
import { SITE_TEXTS } from './site-texts.js';

/** Whether the client asks for HTML (a browser) rather than JSON (an API client, curl's * / *). */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (type === 'text/html' || type === 'application/xhtml+xml') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** What GET / tells an API client, from the instruments loaded: a fixed list went stale when the SPI came. */
function about(instruments: Instrument[]) {
  return {
    name: 'Assay',
    description: `Candidate assessments (${instruments.map((i) => i.code).join(', ')}) for applicant-tracking systems`,
    instruments: instruments.map((i) => ({ assessmentType: i.assessmentType, code: i.code, name: i.name.en })),
    documentation: '/docs',
    openapi: '/openapi.json',
    health: '/healthz',
  };
}

/**
 * GET /, and what answers a path no route has: a browser gets a page, an API client JSON. Neither
 * says anything about tenants or assessments.
 */
export async function siteRoutes(app: App, loaded: ReadonlyMap<number, Instrument>): Promise<void> {
  const instruments = [...loaded.values()].sort((a, b) => a.assessmentType - b.assessmentType);
  const ABOUT = about(instruments);
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    if (!wantsHtml(request.headers.accept)) return reply.header('vary', 'Accept').send(ABOUT);
    const ctx = pageContext(request, reply);
    const t = SITE_TEXTS[ctx.lang];
    const page = layout(
      ctx,
      t.frontTitle,
      html`<h1>${t.frontTitle}</h1>
<p class="lead">${t.frontIntro(instruments.map((i) => i.code))}</p>
<ul>
${instruments.map((i) => html`<li>${i.name[ctx.lang]} (${i.code})</li>`)}
</ul>
<p>${t.candidates}</p>
<h2>${t.integrators}</h2>
<ul>
<li><a href="/docs">${t.docs}</a></li>
<li><a href="/openapi.json">${t.openapi}</a></li>
<li><a href="/healthz">${t.health}</a></li>
</ul>`,
    );
    return sendPage(reply.header('vary', 'Accept, Accept-Language, Cookie'), page);
  });

  app.setNotFoundHandler((request, reply) => notFound(request, reply));
}

function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0]!;
  if (path.startsWith('/api/') || !wantsHtml(request.headers.accept)) {
    return reply.code(404).send(errorBody('NotFound', `No route for ${request.method} ${path}`));
  }
  const ctx = pageContext(request, reply);
  const t = SITE_TEXTS[ctx.lang];
  return sendPage(reply, messagePage(ctx, t.pageNotFoundTitle, t.pageNotFoundText), { status: 404 });
}
