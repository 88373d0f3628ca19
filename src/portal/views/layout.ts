import type { Language } from '../../measurement/instruments/types.js';
import { html, pageHead, type Html } from '../../platform/html.js';
import type { Brand } from '../brand.js';
import { TEXTS } from '../texts.js';

export interface PageContext {
  lang: Language;
  /** The path of this page, for the language switcher. */
  path: string;
  /** The organisation behind the portal, once the assessment is known. */
  brand?: Brand;
  /** What the assessment's instrument measures, once known: the words around the questions and the feedback follow it. */
  kind?: 'motivation' | 'personality';
  /** The candidate's personal code, on the pages of their own browser from Start until they finish. */
  personalCode?: string;
}

/**
 * The frame of every portal page: language, title, skip link, the organisation's name and logo
 * (Assay's when it has none), language switcher, main landmark, and a footer with the privacy
 * statement and contact.
 */
export function layout(ctx: PageContext, title: string, body: Html, opts: { hasError?: boolean } = {}): Html {
  const t = TEXTS[ctx.lang];
  const other: Language = ctx.lang === 'nl' ? 'en' : 'nl';
  const brand = ctx.brand;
  const stylesheets = ['/assets/portal.css', ...(brand?.themeUrl ? [brand.themeUrl] : [])];
  const fullTitle = `${opts.hasError ? `${t.errorSummary}: ` : ''}${title} – ${brand?.name ?? t.siteName}`;
  return html`${pageHead({ lang: ctx.lang, title: fullTitle, stylesheets, script: '/assets/portal.js' })}
<body>
<a class="skip-link" href="#main">${t.skipToContent}</a>
<header class="site-header">
<span class="brand">${brand?.logoUrl ? html`<img class="logo" src="${brand.logoUrl}" alt="">` : ''}<span>${brand?.name ?? 'Assay'}</span></span>
<a class="lang-switch" href="${ctx.path}?lang=${other}" hreflang="${other}" lang="${other}">${TEXTS[other].languageName}</a>
</header>
<main id="main" tabindex="-1">
${body}
${ctx.personalCode ? html`<p class="personal-code">${t.personalCode} <strong class="code">${ctx.personalCode}</strong></p>` : ''}
</main>
${
  brand?.privacyUrl || brand?.contact
    ? html`<footer class="site-footer">
${brand.privacyUrl ? html`<a href="${brand.privacyUrl}" rel="noreferrer">${t.privacyStatement}</a>` : ''}
${brand.contact ? html`<span>${t.contactLine} <a href="mailto:${brand.contact}">${brand.contact}</a></span>` : ''}
</footer>`
    : ''
}
</body>
</html>`;
}
