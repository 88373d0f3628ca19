import type { Instrument, Item } from '../../measurement/instruments/types.js';
import { Html, html } from '../../platform/html.js';
import { fill, textsFor } from '../texts.js';
import { layout, type PageContext } from './layout.js';
import { errorSummary } from './pages.js';

export interface QuestionsView {
  instrument: Instrument;
  page: number;
  pages: number;
  items: Item[];
  /** Item number (1-based, across the questionnaire) of the first item on this page. */
  firstNumber: number;
  answers: ReadonlyMap<string, number>;
  answeredTotal: number;
  missing: ReadonlySet<string>;
  action: string;
  csrf: string;
}

const CHECKED = html` checked`;
/** Where an option's `checked` goes while an item's pieces are made. */
const MARK = html`\u0000`;

/** Per instrument, each item's markup for a language and number, split where `checked` may go: bounded by items × languages. */
const cache = new WeakMap<Instrument, Map<string, string[]>>();
function pieces(instrument: Instrument): Map<string, string[]> {
  let map = cache.get(instrument);
  if (!map) cache.set(instrument, (map = new Map()));
  return map;
}

/** One page of statements, each a labelled radio group on the instrument's agreement scale. */
export function questionsPage(ctx: PageContext, v: QuestionsView): Html {
  const t = textsFor(ctx);
  const { min, max, labels } = v.instrument.responseScale;
  const values = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const total = v.instrument.items.length;
  const last = v.page === v.pages;
  const title = t.questionsTitle(v.page, v.pages);
  const missing = v.items.filter((i) => v.missing.has(i.id));

  const item = (it: Item, index: number, checked: (value: number) => Html | string) => {
    const n = v.firstNumber + index;
    const invalid = v.missing.has(it.id);
    const errId = `err-${it.id}`;
    return html`<fieldset class="item${invalid ? ' has-error' : ''}" id="item-${it.id}"${invalid ? html` aria-describedby="${errId}"` : ''}>
<legend><span class="item-number">${t.statement(n)}</span> <span class="item-text">${it.text[ctx.lang]}</span></legend>
${invalid ? html`<p class="field-error" id="${errId}">${t.answerThis}</p>` : ''}
<div class="scale">
${values.map(
  (value, i) =>
    html`<label class="scale-option"><input type="radio" name="a_${it.id}" value="${value}"${checked(value)}${i === 0 ? html` id="q-${it.id}"` : ''}><span>${labels[ctx.lang][i]}</span></label>`,
)}
</div>
</fieldset>`;
  };
  const checkedIf = (it: Item) => (value: number) => (v.answers.get(it.id) === value ? CHECKED : '');
  // An item without an error is the same markup each time but for which option is checked: its
  // pieces around those places are made once per item and language.
  const itemHtml = (it: Item, index: number): Html => {
    if (v.missing.has(it.id)) return item(it, index, checkedIf(it));
    const key = `${ctx.lang}:${v.firstNumber + index}:${it.id}`;
    let parts = pieces(v.instrument).get(key);
    if (!parts) {
      parts = item(it, index, () => MARK).value.split(MARK.value);
      // A text holding the mark itself would cut the markup in the wrong places: such an item is made each time.
      if (parts.length !== values.length + 1) return item(it, index, checkedIf(it));
      pieces(v.instrument).set(key, parts);
    }
    const answer = v.answers.get(it.id);
    let out = parts[0]!;
    for (let i = 0; i < values.length; i++) out += (answer === values[i] ? CHECKED.value : '') + parts[i + 1]!;
    return new Html(out);
  };

  return layout(
    ctx,
    title,
    html`${
      missing.length
        ? errorSummary(
            ctx,
            t.answerAll(missing.length),
            missing.map((i) => ({ href: `#q-${i.id}`, message: `${t.statement(v.firstNumber + v.items.indexOf(i))}: ${t.answerThis}` })),
          )
        : ''
    }
<h1>${title}</h1>
<div class="progress">
<p id="progress-text" data-template="${fill(t.progress, { total })}" data-answered-elsewhere="${v.answeredTotal - v.items.filter((i) => v.answers.has(i.id)).length}">${fill(t.progress, { answered: v.answeredTotal, total })}</p>
<progress max="${total}" value="${v.answeredTotal}" aria-labelledby="progress-text"></progress>
</div>
<p class="instructions">${t.instructions}</p>
<form method="post" action="${v.action}" novalidate class="questions">
<input type="hidden" name="_csrf" value="${v.csrf}">
${v.items.map(itemHtml)}
<div class="actions">
<button type="submit" name="nav" value="${last ? 'finish' : 'next'}" class="primary">${last ? t.finish : t.next}</button>
${v.page > 1 ? html`<button type="submit" name="nav" value="back" class="secondary">${t.back}</button>` : ''}
</div>
</form>`,
    { hasError: missing.length > 0 },
  );
}
