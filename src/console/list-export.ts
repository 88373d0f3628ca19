import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Deps } from '../app-types.js';
import { walkConsoleList, type ConsoleRow } from '../assessments/console-list-store.js';
import { scaleCode } from '../measurement/result.js';
import { releaseState, resultOf, withheld } from '../reports/render.js';
import { toStoreInput, type InstrumentRef, type ListQuery } from './list-query.js';

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return first) gets
 * a leading apostrophe, so it shows as the text it is (OWASP, CSV injection).
 */
export function neutralise(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

const FIXED = [
  'ExternalId',
  'FirstName',
  'Preposition',
  'LastName',
  'Instrument',
  'Status',
  'InvitedAt',
  'CompletedAt',
  'ResultsRelease',
  'IntegrityFlags',
  'NormGroup',
];

/** Scale codes and stens of a completed, released and normed result; undefined for any other. */
async function stens(
  deps: Pick<Deps, 'store' | 'instruments' | 'competences'>,
  r: ConsoleRow,
): Promise<{ group: string; stens: Map<string, number> } | undefined> {
  const a = r.assessment;
  if (a.status !== 'Completed' || withheld(a)) return undefined;
  const result = await resultOf(deps, a, 'en');
  if (!result?.normGroup) return undefined;
  const normed = result.scales.filter((s) => s.sten !== undefined);
  return { group: result.normGroup.name, stens: new Map(normed.map((s) => [s.code, s.sten!])) };
}

/**
 * The filtered list as CSV, streamed a page of rows at a time, in the view's order: statuses, dates
 * (ISO-8601 UTC) and, where the results are released and normed, the norm group and stens. With an
 * instrument chosen each of its scales has a column; without one the stens share one column as
 * CODE=sten pairs, since instruments have different scales. Names, not e-mail addresses.
 */
export function exportCandidateList(
  deps: Pick<Deps, 'store' | 'instruments' | 'competences'>,
  tenantId: string,
  query: ListQuery,
  instruments: readonly InstrumentRef[],
  now = new Date().toISOString(),
): Readable {
  const { filter, page } = toStoreInput(query, instruments);
  const instrument = filter.assessmentType === undefined ? undefined : deps.instruments.get(filter.assessmentType);
  const scaleCodes = instrument ? instrument.scales.map((s) => scaleCode(s.id)) : undefined;
  const columns = [...FIXED, ...(scaleCodes ?? ['Stens'])];
  const code = new Map(instruments.map((i) => [i.assessmentType, i.code]));
  async function* records(): AsyncGenerator<string[]> {
    for await (const r of walkConsoleList(deps.store, tenantId, filter, { sort: page.sort, descending: page.descending }, 500, now)) {
      const a = r.assessment;
      const s = await stens(deps, r);
      const fixed = [
        a.external_id,
        r.firstName,
        r.preposition,
        r.lastName,
        code.get(a.assessment_type) ?? String(a.assessment_type),
        r.status,
        a.created_at,
        a.completed_at ?? '',
        a.status === 'Completed' ? releaseState(a) : '',
        r.flags.join(' '),
        s?.group ?? '',
      ];
      const scores = scaleCodes
        ? scaleCodes.map((c) => (s?.stens.has(c) ? String(s.stens.get(c)) : ''))
        : [s ? [...s.stens].map(([c, v]) => `${c}=${v}`).join('; ') : ''];
      yield [...fixed, ...scores].map(neutralise);
    }
  }
  // pipeline: a reader that goes away ends the walk too; an error in it reaches the reader.
  return pipeline(Readable.from(records()), stringify({ header: true, columns }), () => {});
}
