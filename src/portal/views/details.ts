import { html, type Html } from '../../platform/html.js';
import { TEXTS } from '../texts.js';
import { layout, type PageContext } from './layout.js';
import { errorSummary, type FieldError } from './pages.js';

export interface DetailsValues {
  FirstName?: string;
  Preposition?: string;
  LastName?: string;
  Email?: string;
}

/** The update-details form. Shown empty at first: the spec says the stored data is not shown. */
export function detailsPage(ctx: PageContext, action: string, csrf: string, values: DetailsValues = {}, errors: FieldError[] = []): Html {
  const t = TEXTS[ctx.lang];
  const errorFor = (f: string) => errors.find((e) => e.field === f);
  const field = (name: keyof DetailsValues, label: string, type: string, autocomplete: string, required: boolean) => {
    const error = errorFor(name);
    const id = `f-${name}`;
    return html`<div class="field${error ? ' has-error' : ''}">
<label for="${id}">${label}</label>
${error ? html`<p class="field-error" id="${id}-error">${error.message}</p>` : ''}
<input id="${id}" name="${name}" type="${type}" autocomplete="${autocomplete}" value="${values[name] ?? ''}"${required ? html` required aria-required="true"` : ''}${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
</div>`;
  };
  return layout(
    ctx,
    t.detailsTitle,
    html`${
      errors.length
        ? errorSummary(
            ctx,
            undefined,
            errors.map((e) => ({ href: `#f-${e.field}`, message: e.message })),
          )
        : ''
    }
<h1>${t.detailsTitle}</h1>
<p class="lead">${t.detailsIntro}</p>
<form method="post" action="${action}" novalidate>
<input type="hidden" name="_csrf" value="${csrf}">
${field('FirstName', t.firstName, 'text', 'given-name', true)}
${field('Preposition', t.preposition, 'text', 'additional-name', false)}
${field('LastName', t.lastName, 'text', 'family-name', true)}
${field('Email', t.email, 'email', 'email', true)}
<button type="submit" class="primary">${t.save}</button>
</form>`,
    { hasError: errors.length > 0 },
  );
}

export function genderPage(ctx: PageContext, action: string, csrf: string, error = false): Html {
  const t = TEXTS[ctx.lang];
  const options = [1, 2, 3] as const;
  const label = (v: 0 | 1 | 2 | 3) => (v === 0 ? t.genderNone : t.genders[v]);
  return layout(
    ctx,
    t.genderTitle,
    html`${error ? errorSummary(ctx, undefined, [{ href: '#g-1', message: t.fieldErrors.Gender! }]) : ''}
<h1>${t.genderTitle}</h1>
<form method="post" action="${action}" novalidate>
<input type="hidden" name="_csrf" value="${csrf}">
<fieldset class="choice${error ? ' has-error' : ''}" aria-describedby="gender-hint${error ? ' gender-error' : ''}">
<legend>${t.genderQuestion}</legend>
<p class="hint" id="gender-hint">${t.genderHint} ${t.genderWhy}</p>
${error ? html`<p class="field-error" id="gender-error">${t.fieldErrors.Gender}</p>` : ''}
${[...options, 0 as const].map((v) => html`<label class="option" for="g-${v}"><input type="radio" id="g-${v}" name="Gender" value="${v}"> ${label(v)}</label>`)}
</fieldset>
<button type="submit" class="primary">${t.save}</button>
</form>`,
    { hasError: error },
  );
}
