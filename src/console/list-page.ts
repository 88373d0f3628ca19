import { countConsoleStatuses, listConsolePage } from '../assessments/console-list-store.js';
import type { Store } from '../db/database.js';
import { DomainError } from '../domain/errors.js';
import type { Language } from '../domain/language.js';
import type { Html } from '../platform/html.js';
import { parseListQuery, toStoreInput, type InstrumentRef } from './list-query.js';
import { candidateListBody } from './list-view.js';

/**
 * The candidate list's page body for a tenant and a URL query: the page and the counts read, a
 * cursor whose row is gone answered with the first page and a message. `extra` names query
 * parameters the layout reads (the language), which the list lets pass.
 */
export async function candidateListPage(
  store: Store,
  tenantId: string,
  params: URLSearchParams,
  opts: { instruments: readonly InstrumentRef[]; lang: Language; canExport: boolean; canInvite?: boolean; extra?: readonly string[] },
): Promise<Html> {
  const { query, problems } = parseListQuery(params, opts.instruments, opts.extra);
  const { filter, page } = toStoreInput(query, opts.instruments);
  const now = new Date().toISOString();
  const read = async () => {
    try {
      return await listConsolePage(store, tenantId, filter, page, now);
    } catch (err) {
      if (!(err instanceof DomainError) || err.details.field !== 'cursor') throw err;
      problems.push({ field: 'cursor', code: 'cursor' });
      delete query.cursor;
      return listConsolePage(store, tenantId, filter, { ...page, after: undefined, before: undefined }, now);
    }
  };
  const [result, counts] = await Promise.all([read(), countConsoleStatuses(store, tenantId, filter, now)]);
  return candidateListBody({
    ...result,
    counts,
    query,
    problems,
    instruments: opts.instruments,
    lang: opts.lang,
    canExport: opts.canExport,
    canInvite: opts.canInvite === true,
  });
}
