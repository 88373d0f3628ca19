import type { Instrument } from '../../measurement/instruments/types.js';
import { html, type Html } from '../../platform/html.js';
import { TEXTS } from '../texts.js';
import { layout, type PageContext } from './layout.js';

const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

export function startPage(ctx: PageContext, instrument: Instrument, action: string, csrf: string, resuming: boolean, retentionDays: number): Html {
  const t = TEXTS[ctx.lang];
  const title = resuming ? t.continueTitle : t.startTitle;
  const org = ctx.brand?.name ?? null;
  return layout(
    ctx,
    title,
    html`<h1>${title}</h1>
<p class="lead">${resuming ? t.continueIntro : org ? t.invitedBy(org) : t.startIntro}</p>
<section class="card" aria-labelledby="instrument-name">
<h2 id="instrument-name">${instrument.name[ctx.lang]}</h2>
<p>${instrument.description[ctx.lang]}</p>
<p>${t.aboutDuration(instrument.estimatedMinutes, instrument.items.length)}</p>
<p>${t.startSaved}</p>
</section>
<section class="privacy" aria-label="${t.privacyStatement}">
<p>${t.whoSees(org)}</p>
<p>${t.retention(retentionDays)}</p>
${ctx.brand?.privacyUrl ? html`<p><a href="${ctx.brand.privacyUrl}" rel="noreferrer">${t.privacyLink}</a></p>` : ''}
</section>
<form method="post" action="${action}">
${csrfField(csrf)}
<button type="submit" class="primary">${resuming ? t.continueButton : t.startButton}</button>
</form>`,
  );
}

export function messagePage(ctx: PageContext, title: string, text: string, ...links: Array<{ href: string; label: string } | undefined>): Html {
  return layout(
    ctx,
    title,
    html`<h1>${title}</h1>
<p class="lead">${text}</p>
${links.map((link) => (link ? html`<p><a class="button-link" href="${link.href}" rel="noreferrer">${link.label}</a></p>` : ''))}`,
  );
}

/** A finished questionnaire; `candidateLink` leads the candidate to their results, or to typing their code. */
export function completedPage(ctx: PageContext, returnUrl: string | null, candidateLink?: { href: string; label: string }): Html {
  const t = TEXTS[ctx.lang];
  return messagePage(ctx, t.completedTitle, t.completedText, candidateLink, returnUrl ? { href: returnUrl, label: t.returnLink } : undefined);
}

export function closeTabPage(ctx: PageContext): Html {
  const t = TEXTS[ctx.lang];
  return messagePage(ctx, t.closeTitle, t.closeText);
}

/** An expired or withdrawn link: it names the organisation and how to reach it. */
export function closedPage(ctx: PageContext, kind: 'expired' | 'cancelled'): Html {
  const t = TEXTS[ctx.lang];
  const org = ctx.brand?.name ?? null;
  const [title, text] = kind === 'expired' ? [t.linkExpiredTitle, t.linkExpiredText(org)] : [t.cancelledTitle, t.cancelledText(org)];
  return layout(
    ctx,
    title,
    html`<h1>${title}</h1>
<p class="lead">${text}</p>
${ctx.brand?.contact ? html`<p>${t.contactAt(ctx.brand.contact)}</p>` : ''}`,
  );
}

/** Asked on the server before the candidate's answers are final: works without JavaScript. */
export function confirmPage(ctx: PageContext, action: string, csrf: string, items: number): Html {
  const t = TEXTS[ctx.lang];
  return layout(
    ctx,
    t.confirmTitle,
    html`<h1>${t.confirmTitle}</h1>
<p class="lead">${t.confirmText(items)}</p>
<form method="post" action="${action}">
${csrfField(csrf)}
<div class="actions">
<button type="submit" name="nav" value="finish" class="primary">${t.confirmFinish}</button>
<button type="submit" name="nav" value="back" class="secondary">${t.confirmBack}</button>
</div>
</form>`,
  );
}

export function notFoundPage(ctx: PageContext): Html {
  const t = TEXTS[ctx.lang];
  return messagePage(ctx, t.notFoundTitle, t.notFoundText);
}

export interface FieldError {
  field: string;
  message: string;
}

/** The GOV.UK-style error summary: a heading and links to each field, focused by portal.js. */
export function errorSummary(ctx: PageContext, intro: string | undefined, errors: Array<{ href: string; message: string }>): Html {
  const t = TEXTS[ctx.lang];
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">${t.errorSummary}</h2>
${intro ? html`<p>${intro}</p>` : ''}
<ul>${errors.map((e) => html`<li><a href="${e.href}">${e.message}</a></li>`)}</ul>
</div>`;
}
