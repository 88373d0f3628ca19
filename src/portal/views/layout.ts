import type { Language } from '../../domain/instruments/types.js';
import { html, type Html } from '../../html.js';
import { TEXTS } from '../texts.js';

export interface PageContext {
  lang: Language;
  /** The path of this page, for the language switcher. */
  path: string;
}

/** The frame of every portal page: language, title, skip link, language switcher, main landmark. */
export function layout(ctx: PageContext, title: string, body: Html, opts: { hasError?: boolean } = {}): Html {
  const t = TEXTS[ctx.lang];
  const other: Language = ctx.lang === 'nl' ? 'en' : 'nl';
  return html`<!doctype html>
<html lang="${ctx.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${opts.hasError ? `${t.errorSummary}: ` : ''}${title} – ${t.siteName}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/portal.css">
<script src="/assets/portal.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">${t.skipToContent}</a>
<header class="site-header">
<span class="brand">Assay</span>
<a class="lang-switch" href="${ctx.path}?lang=${other}" hreflang="${other}" lang="${other}">${TEXTS[other].languageName}</a>
</header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>`;
}
