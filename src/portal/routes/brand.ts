import type { App, Deps } from '../../app-types.js';
import { darken, HEX_COLOUR } from '../../domain/colour.js';
import { portalLogo } from '../../tenancy/portal-settings-store.js';

const YEAR = 'public, max-age=31536000, immutable';

/**
 * A portal's logo and colour. Both URLs carry what they show (the logo's hash, the colour), so
 * they can be cached for a year and a change is a new URL. The colour is a stylesheet because the
 * strict CSP allows no inline style.
 */
export function brandRoutes(app: App, deps: Deps): void {
  app.get('/logo/:key/:hash', async (request, reply) => {
    const { key, hash } = request.params as { key: string; hash: string };
    const logo = /^[0-9a-f-]{36}$/.test(key) && /^[0-9a-f]{16}$/.test(hash) ? await portalLogo(deps.store, key) : undefined;
    if (!logo || logo.hash !== hash) return reply.code(404).type('text/plain').header('cache-control', 'no-store').send('Not found');
    return (
      reply
        .type(logo.type)
        .header('cache-control', YEAR)
        // An SVG opened on its own runs nothing and loads nothing.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .send(logo.bytes)
    );
  });

  app.get('/theme/:file', async (request, reply) => {
    const { file } = request.params as { file: string };
    const hex = /^([0-9a-f]{6})\.css$/.exec(file)?.[1];
    if (!hex || !HEX_COLOUR.test(`#${hex}`)) return reply.code(404).type('text/plain').send('Not found');
    return reply
      .type('text/css; charset=utf-8')
      .header('cache-control', YEAR)
      .send(`:root { --brand: #${hex}; --brand-dark: ${darken(`#${hex}`)}; }\n`);
  });
}
