import type { AssessmentView, CandidateRecord } from '../assessments/views.js';
import { consoleCandidateActionPath, CONSOLE_LIST_PATH, type CandidateAction } from '../domain/console-paths.js';
import { fullName } from '../domain/names.js';
import { html, type Html } from '../platform/html.js';
import { CANDIDATE_TEXTS } from './candidate-texts.js';
import { LIST_TEXTS } from './list-texts.js';
import { when } from './list-view.js';
import type { ConsoleContext } from './render.js';
import { layout } from './views.js';

/** What the last action did: a notice, or a problem (shown as an alert). */
export interface Outcome {
  text: string;
  problem?: boolean;
}

export interface CandidatePageInput {
  record: CandidateRecord;
  /** AssessmentType to the instrument's code. */
  instrumentCodes: ReadonlyMap<number, string>;
  /** null for a viewer, who sees no action forms. */
  csrf: string | null;
  outcome?: Outcome;
  /** What the erase form's confirmation held, when it did not match. */
  eraseMismatch?: boolean;
}

function actionForm(externalId: string, action: CandidateAction, csrf: string, analysisId: string, label: string): Html {
  return html`<form method="post" action="${consoleCandidateActionPath(externalId, action)}" class="inline-form">
<input type="hidden" name="_csrf" value="${csrf}">
<input type="hidden" name="AnalysisId" value="${analysisId}">
<button type="submit" class="secondary">${label}</button>
</form>`;
}

function row(ctx: ConsoleContext, input: CandidatePageInput, a: AssessmentView): Html {
  const t = CANDIDATE_TEXTS[ctx.lang];
  const open = a.status === 'Created' || a.status === 'Started';
  const id = input.record.candidate.external_id;
  const actions =
    input.csrf && open
      ? html`${actionForm(id, 'cancel', input.csrf, a.analysisId, t.cancel)}${actionForm(id, 'resend', input.csrf, a.analysisId, t.resend)}`
      : '';
  return html`<tr>
<th scope="row">${input.instrumentCodes.get(a.assessmentType) ?? String(a.assessmentType)}</th>
<td class="status">${LIST_TEXTS[ctx.lang].statuses[a.status]}</td>
<td>${when(a.createdAt, ctx.lang)}</td><td>${when(a.startedAt, ctx.lang)}</td><td>${when(a.completedAt, ctx.lang)}</td><td>${when(a.expiresAt, ctx.lang)}</td>
<td><code class="assessment-url">${a.assessmentUrl}</code></td>
<td>${actions}</td>
</tr>`;
}

function assessments(ctx: ConsoleContext, input: CandidatePageInput): Html {
  const t = CANDIDATE_TEXTS[ctx.lang];
  const list = input.record.assessments;
  if (list.length === 0) return html`<p class="empty">${t.none}</p>`;
  const c = t.columns;
  return html`<div class="table-scroll"><table class="candidate-assessments">
<caption>${t.caption(list.length)}</caption>
<thead><tr><th scope="col">${c.instrument}</th><th scope="col">${c.status}</th><th scope="col">${c.invited}</th><th scope="col">${c.started}</th><th scope="col">${c.completed}</th><th scope="col">${c.expiry}</th><th scope="col">${c.link}</th><th scope="col">${c.actions}</th></tr></thead>
<tbody>
${list.map((a) => row(ctx, input, a))}
</tbody>
</table></div>`;
}

function eraseForm(ctx: ConsoleContext, input: CandidatePageInput, csrf: string): Html {
  const t = CANDIDATE_TEXTS[ctx.lang];
  const id = input.record.candidate.external_id;
  const bad = input.eraseMismatch === true;
  return html`<section aria-labelledby="erase-title">
<h2 id="erase-title">${t.eraseTitle}</h2>
<p>${t.eraseText}</p>
<form method="post" action="${consoleCandidateActionPath(id, 'erase')}" novalidate>
<input type="hidden" name="_csrf" value="${csrf}">
<div class="field${bad ? ' has-error' : ''}">
<label for="f-confirm">${t.eraseConfirm(id)}</label>
${bad ? html`<p class="field-error" id="confirm-error">${t.eraseMismatch}</p>` : ''}
<input id="f-confirm" name="confirm" type="text" autocomplete="off" spellcheck="false" required aria-required="true"${bad ? html` aria-invalid="true" aria-describedby="confirm-error"` : ''}>
</div>
<button type="submit">${t.erase}</button>
</form>
</section>`;
}

/** A candidate's page: who, their assessments with links, and (for those who may act) the actions. */
export function candidatePage(ctx: ConsoleContext, input: CandidatePageInput): Html {
  const t = CANDIDATE_TEXTS[ctx.lang];
  const { candidate } = input.record;
  const name = fullName(candidate);
  const outcome = input.outcome
    ? input.outcome.problem
      ? html`<div class="error-summary" role="alert"><p>${input.outcome.text}</p></div>`
      : html`<p class="notice" role="status">${input.outcome.text}</p>`
    : '';
  return layout(
    ctx,
    name,
    html`<p><a href="${CONSOLE_LIST_PATH}">${t.backToList}</a></p>
<h1>${name}</h1>
${outcome}
<dl class="card">
<dt>${t.externalId}</dt><dd class="external-id">${candidate.external_id}</dd>
<dt>${t.email}</dt><dd>${candidate.email}</dd>
</dl>
<h2>${t.assessments}</h2>
${assessments(ctx, input)}
${input.csrf ? eraseForm(ctx, input, input.csrf) : ''}`,
    { hasError: input.outcome?.problem === true },
  );
}
