import type { ConsoleRow } from '../assessments/console-list-store.js';
import { CONSOLE_EXPORT_PATH, CONSOLE_INVITE_PATH, CONSOLE_LIST_PATH } from '../domain/console-paths.js';
import type { Language } from '../domain/language.js';
import { fullName } from '../domain/names.js';
import type { LifecycleStatus } from '../domain/status.js';
import { html, type Html } from '../platform/html.js';
import { releaseState } from '../reports/render.js';
import { buildListQuery, SORT_VALUES, STATUS_VALUES, type InstrumentRef, type ListQuery, type QueryProblem } from './list-query.js';
import { INVITE_TEXTS } from './invite-texts.js';
import { LIST_TEXTS } from './list-texts.js';

/** Where the list is served; a row's candidate is at `${LIST_PATH}/<ExternalId>`. */
export const LIST_PATH = CONSOLE_LIST_PATH;
export const EXPORT_PATH = CONSOLE_EXPORT_PATH;

export interface ListPageInput {
  rows: ConsoleRow[];
  /** The store's links: the AnalysisId the next page starts after, the previous ends before. */
  next: string | null;
  previous: string | null;
  counts: Record<LifecycleStatus, number>;
  query: ListQuery;
  problems: QueryProblem[];
  instruments: readonly InstrumentRef[];
  lang: Language;
  /** false hides the export link (a viewer may not export). */
  canExport?: boolean;
  /** true shows the link to the invite form (admins and recruiters). */
  canInvite?: boolean;
}

const DATE = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
  nl: new Intl.DateTimeFormat('nl-NL', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
} satisfies Record<Language, Intl.DateTimeFormat>;

/** A moment as the console shows it, in UTC; nothing for none. */
export const when = (iso: string | null, lang: Language): Html | string =>
  iso === null ? '' : html`<time datetime="${iso}">${DATE[lang].format(new Date(iso))} UTC</time>`;

const nameOf = (r: ConsoleRow) => fullName({ first_name: r.firstName, preposition: r.preposition, last_name: r.lastName });

function counts(input: ListPageInput): Html {
  const t = LIST_TEXTS[input.lang];
  const total = STATUS_VALUES.reduce((n, s) => n + input.counts[s], 0);
  const item = (label: string, n: number, status: LifecycleStatus | undefined) => {
    const href = LIST_PATH + buildListQuery(input.query, { status, cursor: null });
    const current = input.query.status === status ? html` aria-current="page"` : '';
    return html`<li><a href="${href}"${current}>${label} <span class="count">${n}</span></a></li>`;
  };
  return html`<nav aria-label="${t.countsLabel}"><ul class="status-counts">
${item(t.all, total, undefined)}${STATUS_VALUES.map((s) => item(t.statuses[s], input.counts[s], s))}
</ul></nav>`;
}

const option = (value: string, label: string, selected: boolean) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;

function form(input: ListPageInput): Html {
  const t = LIST_TEXTS[input.lang];
  const q = input.query;
  return html`<form method="get" action="${LIST_PATH}" class="list-filters" role="search" aria-label="${t.filtersLabel}">
<p><label for="list-q">${t.search}</label>
<input id="list-q" name="q" type="search" maxlength="100" value="${q.search ?? ''}" aria-describedby="list-q-hint">
<span id="list-q-hint" class="hint">${t.searchHint}</span></p>
<p><label for="list-status">${t.status}</label>
<select id="list-status" name="status">${option('', t.any, !q.status)}${STATUS_VALUES.map((s) => option(s, t.statuses[s], q.status === s))}</select></p>
<p><label for="list-instrument">${t.instrument}</label>
<select id="list-instrument" name="instrument">${option('', t.any, !q.instrument)}${input.instruments.map((i) => option(i.code, i.code, q.instrument === i.code))}</select></p>
<p><label for="list-from">${t.invitedFrom}</label> <input id="list-from" name="from" type="date" value="${q.from ?? ''}"></p>
<p><label for="list-to">${t.invitedTo}</label> <input id="list-to" name="to" type="date" value="${q.to ?? ''}"></p>
<p><label for="list-flagged">${t.flagged}</label>
<select id="list-flagged" name="flagged">${option('', t.any, q.flagged === undefined)}${option('yes', t.flaggedYes, q.flagged === true)}${option('no', t.flaggedNo, q.flagged === false)}</select></p>
<p><label for="list-sort">${t.sort}</label>
<select id="list-sort" name="sort">${SORT_VALUES.map((s) => option(s, t.sorts[s], q.sort === s))}</select></p>
<p><label for="list-dir">${t.direction}</label>
<select id="list-dir" name="dir">${option('desc', t.descending, q.descending)}${option('asc', t.ascending, !q.descending)}</select></p>
<p><button type="submit">${t.apply}</button> <a href="${LIST_PATH}">${t.clear}</a></p>
</form>`;
}

const SORT_COLUMN = { invited: 'invited', completed: 'completed', name: 'name' } as const;

function table(input: ListPageInput): Html {
  const t = LIST_TEXTS[input.lang];
  if (input.rows.length === 0) return html`<p class="empty">${t.none}</p>`;
  const sorted = SORT_COLUMN[input.query.sort];
  const th = (key: keyof typeof t.columns) => {
    const sort = key === sorted ? html` aria-sort="${input.query.descending ? 'descending' : 'ascending'}"` : '';
    return html`<th scope="col"${sort}>${t.columns[key]}</th>`;
  };
  const code = new Map(input.instruments.map((i) => [i.assessmentType, i.code]));
  const row = (r: ConsoleRow) => {
    const a = r.assessment;
    return html`<tr>
<th scope="row"><a href="${`${LIST_PATH}/${encodeURIComponent(a.external_id)}`}">${nameOf(r)}</a></th>
<td>${a.external_id}</td><td>${code.get(a.assessment_type) ?? a.assessment_type}</td><td>${t.statuses[r.status]}</td>
<td>${when(a.created_at, input.lang)}</td><td>${when(a.completed_at, input.lang)}</td>
<td>${a.status === 'Completed' ? t.release[releaseState(a)] : ''}</td><td>${a.status !== 'Completed' ? '' : r.flags.length ? r.flags.join(', ') : t.noFlags}</td>
</tr>`;
  };
  return html`<div class="table-scroll"><table class="candidate-list">
<caption>${t.caption(input.rows.length)}</caption>
<thead><tr>${th('name')}${th('externalId')}${th('instrument')}${th('status')}${th('invited')}${th('completed')}${th('release')}${th('flags')}</tr></thead>
<tbody>
${input.rows.map(row)}</tbody>
</table></div>`;
}

function pager(input: ListPageInput): Html | string {
  const t = LIST_TEXTS[input.lang];
  const link = (cursor: ListQuery['cursor'], rel: string, label: string) =>
    html`<a href="${LIST_PATH + buildListQuery(input.query, { cursor })}" rel="${rel}">${label}</a>`;
  const previous = input.previous !== null ? link({ before: input.previous }, 'prev', t.previous) : '';
  const next = input.next !== null ? link({ after: input.next }, 'next', t.next) : '';
  const first = input.query.cursor && input.previous === null ? link(undefined, 'first', t.first) : '';
  if (!previous && !next && !first) return '';
  return html`<nav aria-label="${t.pages}" class="pager">${first} ${previous} ${next}</nav>`;
}

function problems(input: ListPageInput): Html | string {
  if (input.problems.length === 0) return '';
  const t = LIST_TEXTS[input.lang];
  return html`<div role="alert" class="problems"><p>${t.problemsTitle}</p><ul>${input.problems.map((p) => html`<li>${t.problem(p)}</li>`)}</ul></div>`;
}

/** The candidate list's page body (inside the layout's main): heading, counts, filters, table, pages. */
export function candidateListBody(input: ListPageInput): Html {
  const t = LIST_TEXTS[input.lang];
  const exportLink =
    input.canExport === false ? '' : html`<p class="export"><a href="${EXPORT_PATH + buildListQuery(input.query, { cursor: null })}">${t.export}</a></p>`;
  const invite = input.canInvite ? html`<p class="invite"><a href="${CONSOLE_INVITE_PATH}">${INVITE_TEXTS[input.lang].link}</a></p>` : '';
  return html`<h1>${t.title}</h1>
${invite}${problems(input)}${counts(input)}
${form(input)}
${exportLink}${table(input)}
${pager(input)}`;
}
