import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { ROOT } from '../../platform/paths.js';

const MARK = readFileSync(join(ROOT, 'src', 'portal', 'static', 'favicon.svg'));

// Swagger UI's top bar in Assay's colours; served as a file, so the strict CSP needs no inline style.
const CSS = `
.swagger-ui .topbar { background: #153a9e; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar-wrapper img { height: 40px; }
.swagger-ui .info .title { color: #153a9e; }
`;

/**
 * The docs' own CSP: no inline or foreign script, styles from this origin. Swagger UI adds one
 * inline style element of its own; its hash admits exactly that one (a new Swagger UI with another
 * shows up as a console error in the e2e test of /docs).
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
].join('; ');

/** /docs looks like Assay's: its title, its mark as logo and favicon, its colours. */
export function docsLook(): Pick<FastifySwaggerUiOptions, 'theme' | 'logo' | 'uiConfig'> {
  return {
    theme: {
      title: 'Assay API',
      css: [{ filename: 'assay.css', content: CSS }],
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: MARK }],
    },
    logo: { type: 'image/svg+xml', content: MARK, href: '/docs', target: '_self' },
    uiConfig: { docExpansion: 'list', deepLinking: true, persistAuthorization: false, tryItOutEnabled: false },
  };
}
