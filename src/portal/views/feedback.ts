import type { Scored } from '../../measurement/result.js';
import { html, type Html } from '../../platform/html.js';
import { textsFor } from '../texts.js';
import { layout, type PageContext } from './layout.js';
import { errorSummary } from './pages.js';

export interface FeedbackView {
  most: Array<{ scale: Scored; text: string }>;
  least: Array<{ scale: Scored; text: string }>;
  /** The release question: null when the portal does not ask. */
  release: null | { state: 'pending' | 'released' | 'declined'; action: string; csrf: string };
  /** The candidate's personal code, for coming back on another device. */
  code: string;
  /** What the texts compare with: a real norm group, a simulated example (said so), or nothing. */
  norms: 'real' | 'illustrative' | 'none';
  /** Where the candidate goes on: the ReturnUrl, or the close-tab page. */
  next: string;
}

const item = (x: { scale: Scored; text: string }) => html`<li><strong>${x.scale.name}.</strong> ${x.text}</li>`;

function releaseForm(ctx: PageContext, r: NonNullable<FeedbackView['release']>): Html {
  const t = textsFor(ctx);
  if (r.state === 'released') {
    return html`<p class="card">${t.released}</p>
<form method="post" action="${r.action}" class="release">
<input type="hidden" name="_csrf" value="${r.csrf}">
<p class="hint">${t.withdrawHint}</p>
<button type="submit" name="decision" value="withdraw" class="secondary">${t.withdraw}</button>
</form>`;
  }
  return html`${r.state === 'declined' ? html`<p class="card">${t.declined}</p>` : ''}
<form method="post" action="${r.action}" class="release">
<input type="hidden" name="_csrf" value="${r.csrf}">
<fieldset>
<legend>${t.releaseQuestion}</legend>
<p class="hint">${t.releaseHint}</p>
<div class="actions">
<button type="submit" name="decision" value="release" class="primary">${t.releaseYes}</button>
<button type="submit" name="decision" value="decline" class="secondary">${t.releaseNo}</button>
</div>
</fieldset>
</form>`;
}

/** The candidate's own short feedback after finishing, and, when the portal asks, whether to release the results. */
export function feedbackPage(ctx: PageContext, v: FeedbackView): Html {
  const t = textsFor(ctx);
  const undecided = v.release !== null && v.release.state !== 'released';
  return layout(
    ctx,
    t.feedbackTitle,
    html`<h1>${t.feedbackTitle}</h1>
<p class="lead">${t.feedbackIntro}</p>
${v.norms === 'illustrative' ? html`<p class="notice">${t.feedbackIllustrative}</p>` : ''}
${v.norms === 'none' ? html`<p class="hint">${t.feedbackNotNormed}</p>` : ''}
<h2>${t.feedbackMost}</h2>
<ul class="feedback">${v.most.map(item)}</ul>
<h2>${t.feedbackLeast}</h2>
<ul class="feedback">${v.least.map(item)}</ul>
<p class="hint">${t.feedbackHint}</p>
${v.release ? releaseForm(ctx, v.release) : ''}
<section class="card" aria-labelledby="personal-code">
<h2 id="personal-code">${t.codeTitle}</h2>
<p><strong class="code">${v.code}</strong></p>
<p class="hint">${t.codeText}</p>
</section>
${undecided ? html`<p><a href="${v.next}">${t.releaseLater}</a></p>` : html`<p><a class="button-link" href="${v.next}">${t.continue}</a></p>`}`,
  );
}

/** Where a candidate on another device (or after clearing cookies) types their personal code. */
export function codePage(ctx: PageContext, action: string, csrf: string, wrong: boolean): Html {
  const t = textsFor(ctx);
  return codeForm(ctx, t.codeFormTitle, t.codeFormIntro, action, csrf, wrong);
}

/** What a browser other than the candidate's sees once the assessment is started: a way in with the code. */
export function startedElsewherePage(ctx: PageContext, action: string, csrf: string, wrong = false): Html {
  const t = textsFor(ctx);
  return codeForm(ctx, t.startedElsewhereTitle, t.startedElsewhereIntro, action, csrf, wrong);
}

/** The personal link opened in a browser other than the one the session is in: a button, so a mail scanner's visit moves nothing. */
export function moveHerePage(ctx: PageContext, action: string, csrf: string): Html {
  const t = textsFor(ctx);
  return layout(
    ctx,
    t.moveHereTitle,
    html`<h1>${t.moveHereTitle}</h1>
<p class="lead">${t.moveHereText}</p>
<form method="post" action="${action}">
<input type="hidden" name="_csrf" value="${csrf}">
<button type="submit" class="primary">${t.moveHereButton}</button>
</form>`,
  );
}

function codeForm(ctx: PageContext, title: string, intro: string, action: string, csrf: string, wrong: boolean): Html {
  const t = textsFor(ctx);
  return layout(
    ctx,
    title,
    html`${wrong ? errorSummary(ctx, undefined, [{ href: '#f-code', message: t.codeWrong }]) : ''}
<h1>${title}</h1>
<p class="lead">${intro}</p>
<form method="post" action="${action}" novalidate>
<input type="hidden" name="_csrf" value="${csrf}">
<div class="field${wrong ? ' has-error' : ''}">
<label for="f-code">${t.codeLabel}</label>
<p class="hint" id="f-code-hint">${t.codeHint}</p>
${wrong ? html`<p class="field-error" id="f-code-error">${t.codeWrong}</p>` : ''}
<input id="f-code" name="code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="40" required aria-required="true" aria-describedby="f-code-hint${wrong ? ' f-code-error' : ''}"${wrong ? html` aria-invalid="true"` : ''}>
</div>
<button type="submit" class="primary">${t.codeSubmit}</button>
</form>`,
    { hasError: wrong },
  );
}
