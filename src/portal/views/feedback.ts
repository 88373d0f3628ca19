import type { Scored } from '../../domain/results/result.js';
import { html, type Html } from '../../html.js';
import { TEXTS } from '../texts.js';
import { layout, type PageContext } from './layout.js';

export interface FeedbackView {
  most: Array<{ scale: Scored; text: string }>;
  least: Array<{ scale: Scored; text: string }>;
  /** The release question: null when the portal does not ask. */
  release: null | { state: 'pending' | 'released' | 'declined'; action: string; csrf: string };
  /** Where the candidate goes on: the ReturnUrl, or the close-tab page. */
  next: string;
}

const item = (x: { scale: Scored; text: string }) => html`<li><strong>${x.scale.name}.</strong> ${x.text}</li>`;

/** The candidate's own short feedback after finishing, and, when the portal asks, whether to release the results. */
export function feedbackPage(ctx: PageContext, v: FeedbackView): Html {
  const t = TEXTS[ctx.lang];
  const ask = v.release && v.release.state !== 'released';
  return layout(
    ctx,
    t.feedbackTitle,
    html`<h1>${t.feedbackTitle}</h1>
<p class="lead">${t.feedbackIntro}</p>
<h2>${t.feedbackMost}</h2>
<ul class="feedback">${v.most.map(item)}</ul>
<h2>${t.feedbackLeast}</h2>
<ul class="feedback">${v.least.map(item)}</ul>
<p class="hint">${t.feedbackHint}</p>
${v.release?.state === 'released' ? html`<p class="card">${t.released}</p>` : ''}
${v.release?.state === 'declined' ? html`<p class="card">${t.declined}</p>` : ''}
${ask
  ? html`<form method="post" action="${v.release!.action}" class="release">
<input type="hidden" name="_csrf" value="${v.release!.csrf}">
<fieldset>
<legend>${t.releaseQuestion}</legend>
<p class="hint">${t.releaseHint}</p>
<div class="actions">
<button type="submit" name="decision" value="release" class="primary">${t.releaseYes}</button>
<button type="submit" name="decision" value="decline" class="secondary">${t.releaseNo}</button>
</div>
</fieldset>
</form>
<p><a href="${v.next}">${t.releaseLater}</a></p>`
  : html`<p><a class="button-link" href="${v.next}">${t.continue}</a></p>`}`,
  );
}
