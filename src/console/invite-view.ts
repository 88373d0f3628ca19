import { consoleCandidatePath, CONSOLE_INVITE_PATH } from '../domain/console-paths.js';
import { html, type Html } from '../platform/html.js';
import { INVITE_TEXTS } from './invite-texts.js';
import type { ConsoleContext } from './render.js';
import { TEXTS } from './texts.js';
import { layout } from './views.js';

export const INVITE_FIELDS = ['ExternalId', 'Email', 'FirstName', 'Preposition', 'LastName', 'AssessmentType', 'ExpiresAt'] as const;
export type InviteField = (typeof INVITE_FIELDS)[number];
export type InviteValues = Partial<Record<InviteField, string>>;
/** Each field's problem, in the page's words or the rule's. */
export type InviteErrors = Partial<Record<InviteField, string>>;

export interface InstrumentChoice {
  assessmentType: number;
  label: string;
}

const INPUT: Partial<Record<InviteField, { type: string; autocomplete: string; required: boolean }>> = {
  ExternalId: { type: 'text', autocomplete: 'off', required: true },
  Email: { type: 'email', autocomplete: 'off', required: true },
  FirstName: { type: 'text', autocomplete: 'off', required: true },
  Preposition: { type: 'text', autocomplete: 'off', required: false },
  LastName: { type: 'text', autocomplete: 'off', required: true },
  ExpiresAt: { type: 'text', autocomplete: 'off', required: false },
};

function field(ctx: ConsoleContext, name: InviteField, errors: InviteErrors, control: (describedBy: string) => Html): Html {
  const t = INVITE_TEXTS[ctx.lang];
  const error = errors[name];
  const hint = name === 'ExpiresAt' ? html`<p class="hint" id="hint-${name}">${t.expiresHint}</p>` : '';
  const described = [name === 'ExpiresAt' ? `hint-${name}` : '', error ? `error-${name}` : ''].filter(Boolean).join(' ');
  return html`<div class="field${error ? ' has-error' : ''}">
<label for="f-${name}">${t.fields[name]}</label>
${hint}${error ? html`<p class="field-error" id="error-${name}">${error}</p>` : ''}
${control(described)}
</div>`;
}

/** The invite form; `errors` beside their fields and in a summary at the top. */
export function invitePage(
  ctx: ConsoleContext,
  csrf: string,
  instruments: readonly InstrumentChoice[],
  values: InviteValues = {},
  errors: InviteErrors = {},
  problem?: string,
): Html {
  const t = INVITE_TEXTS[ctx.lang];
  const listed = INVITE_FIELDS.filter((f) => errors[f]);
  const summary =
    listed.length || problem
      ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">${TEXTS[ctx.lang].errorSummary}</h2>
<ul>${problem ? html`<li>${problem}</li>` : ''}${listed.map((f) => html`<li><a href="#f-${f}">${errors[f]!}</a></li>`)}</ul>
</div>`
      : '';
  const attrs = (name: InviteField, describedBy: string) =>
    html`${describedBy ? html` aria-describedby="${describedBy}"` : ''}${errors[name] ? html` aria-invalid="true"` : ''}`;
  const input = (name: InviteField) =>
    field(ctx, name, errors, (d) => {
      const spec = INPUT[name]!;
      return html`<input id="f-${name}" name="${name}" type="${spec.type}" autocomplete="${spec.autocomplete}" spellcheck="false" value="${values[name] ?? ''}"${spec.required ? html` required aria-required="true"` : ''}${attrs(name, d)}>`;
    });
  const select = field(
    ctx,
    'AssessmentType',
    errors,
    (d) => html`<select id="f-AssessmentType" name="AssessmentType" required aria-required="true"${attrs('AssessmentType', d)}>
${instruments.map((i) => html`<option value="${String(i.assessmentType)}"${values.AssessmentType === String(i.assessmentType) ? ' selected' : ''}>${i.label}</option>`)}
</select>`,
  );
  return layout(
    ctx,
    t.title,
    html`${summary}
<h1>${t.title}</h1>
<p class="lead">${t.intro}</p>
<form method="post" action="${CONSOLE_INVITE_PATH}" novalidate>
<input type="hidden" name="_csrf" value="${csrf}">
${input('ExternalId')}${input('Email')}${input('FirstName')}${input('Preposition')}${input('LastName')}${select}${input('ExpiresAt')}
<button type="submit" class="primary">${t.submit}</button>
</form>`,
    { hasError: Boolean(summary) },
  );
}

/** After inviting: the link to copy, said differently with and without e-mail. */
export function invitedPage(ctx: ConsoleContext, externalId: string, assessmentUrl: string, mailed: boolean): Html {
  const t = INVITE_TEXTS[ctx.lang];
  return layout(
    ctx,
    t.doneTitle,
    html`<h1>${t.doneTitle}</h1>
<p class="notice" role="status">${mailed ? t.sent : t.noMail}</p>
<p><code class="assessment-url">${assessmentUrl}</code></p>
<p><a href="${consoleCandidatePath(externalId)}">${t.toCandidate}</a></p>`,
  );
}
