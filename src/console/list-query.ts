import type { ConsoleFilter, ConsolePageRequest, ConsoleSort } from '../assessments/console-list-store.js';
import type { LifecycleStatus } from '../domain/status.js';

/** An instrument as the list's filter names it: its code in the URL, its AssessmentType in the store. */
export interface InstrumentRef {
  assessmentType: number;
  code: string;
}

/** The candidate list's view as its URL holds it: what a bookmark or a colleague's link brings back. */
export interface ListQuery {
  search?: string;
  status?: LifecycleStatus;
  /** An instrument's code, e.g. TMA170. */
  instrument?: string;
  /** Invited on or after this day (YYYY-MM-DD, UTC). */
  from?: string;
  /** Invited on or before this day (YYYY-MM-DD, UTC). */
  to?: string;
  flagged?: boolean;
  sort: ConsoleSort;
  descending: boolean;
  cursor?: { after: string } | { before: string };
}

/** Why a parameter was left out; the texts module says it in the viewer's language. */
export interface QueryProblem {
  field: string;
  code: 'unknown' | 'repeated' | 'not-allowed' | 'date' | 'date-range' | 'cursor' | 'too-long';
  /** The values it may take, where there is a short list. */
  allowed?: string[];
}

export const STATUS_VALUES: readonly LifecycleStatus[] = ['Created', 'Started', 'Completed', 'Expired', 'Cancelled'];
export const SORT_VALUES: readonly ConsoleSort[] = ['invited', 'completed', 'name'];
export const SEARCH_MAX = 100;
export const PAGE_SIZE = 50;
const FIELDS = ['q', 'status', 'instrument', 'from', 'to', 'flagged', 'sort', 'dir', 'cursor'] as const;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Newest invitations and completions first; names A to Z. */
export const defaultDescending = (sort: ConsoleSort) => sort !== 'name';

const isDay = (s: string) => DAY.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/** The cursor as the URL carries it: opaque to people, an AnalysisId and a direction inside. */
export function encodeCursor(cursor: { after: string } | { before: string }): string {
  const text = 'after' in cursor ? `a:${cursor.after}` : `b:${cursor.before}`;
  return Buffer.from(text).toString('base64url');
}

function decodeCursor(value: string): { after: string } | { before: string } | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) return undefined;
  const text = Buffer.from(value, 'base64url').toString();
  const id = text.slice(2);
  if (!ID.test(id) || Buffer.from(text).toString('base64url') !== value) return undefined;
  if (text.startsWith('a:')) return { after: id };
  if (text.startsWith('b:')) return { before: id };
  return undefined;
}

/**
 * Reads the list's URL query. A bad or unknown parameter is left out and named in `problems`, so
 * the page still shows, with the rest applied; an empty value (a form's "any") is no filter.
 * `extra` names parameters other parts of the page read (the language, say), which pass unremarked.
 */
export function parseListQuery(
  params: URLSearchParams,
  instruments: readonly InstrumentRef[],
  extra: readonly string[] = [],
): { query: ListQuery; problems: QueryProblem[] } {
  const problems: QueryProblem[] = [];
  const one = (field: string): string | undefined => {
    const all = params.getAll(field);
    if (all.length > 1) problems.push({ field, code: 'repeated' });
    const v = all[0]?.trim();
    return v ? v : undefined;
  };
  for (const name of new Set(params.keys())) {
    if (!(FIELDS as readonly string[]).includes(name) && !extra.includes(name)) problems.push({ field: name, code: 'unknown' });
  }
  const pick = <T extends string>(field: string, allowed: readonly T[]): T | undefined => {
    const v = one(field);
    if (v === undefined) return undefined;
    const hit = allowed.find((a) => a.toLowerCase() === v.toLowerCase());
    if (hit === undefined) problems.push({ field, code: 'not-allowed', allowed: [...allowed] });
    return hit;
  };
  const query: ListQuery = { sort: 'invited', descending: true };
  const q = one('q');
  if (q !== undefined && q.length > SEARCH_MAX) problems.push({ field: 'q', code: 'too-long' });
  else if (q !== undefined) query.search = q;
  const status = pick('status', STATUS_VALUES);
  if (status) query.status = status;
  const instrument = pick(
    'instrument',
    instruments.map((i) => i.code),
  );
  if (instrument) query.instrument = instrument;
  for (const field of ['from', 'to'] as const) {
    const v = one(field);
    if (v !== undefined && !isDay(v)) problems.push({ field, code: 'date' });
    else if (v !== undefined) query[field] = v;
  }
  if (query.from && query.to && query.from > query.to) {
    problems.push({ field: 'to', code: 'date-range' });
    delete query.to;
  }
  const flagged = pick('flagged', ['yes', 'no'] as const);
  if (flagged) query.flagged = flagged === 'yes';
  query.sort = pick('sort', SORT_VALUES) ?? 'invited';
  const dir = pick('dir', ['asc', 'desc'] as const);
  query.descending = dir === undefined ? defaultDescending(query.sort) : dir === 'desc';
  const cursor = one('cursor');
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor);
    if (decoded) query.cursor = decoded;
    else problems.push({ field: 'cursor', code: 'cursor' });
  }
  return { query, problems };
}

/** The URL query (with its '?', or '' for the default view) that parseListQuery reads back as `query`. */
export function buildListQuery(query: ListQuery, change: Omit<Partial<ListQuery>, 'cursor'> & { cursor?: ListQuery['cursor'] | null } = {}): string {
  const q = { ...query, ...change };
  const params = new URLSearchParams();
  if (q.search) params.set('q', q.search);
  if (q.status) params.set('status', q.status);
  if (q.instrument) params.set('instrument', q.instrument);
  if (q.from) params.set('from', q.from);
  if (q.to) params.set('to', q.to);
  if (q.flagged !== undefined) params.set('flagged', q.flagged ? 'yes' : 'no');
  if (q.sort !== 'invited') params.set('sort', q.sort);
  if (q.descending !== defaultDescending(q.sort)) params.set('dir', q.descending ? 'desc' : 'asc');
  if (q.cursor) params.set('cursor', encodeCursor(q.cursor));
  const text = params.toString();
  return text ? `?${text}` : '';
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

/** What the store takes for this view: the filter, and the page to read. */
export function toStoreInput(query: ListQuery, instruments: readonly InstrumentRef[], limit = PAGE_SIZE): { filter: ConsoleFilter; page: ConsolePageRequest } {
  const filter: ConsoleFilter = {};
  if (query.search) filter.search = query.search;
  if (query.status) filter.status = query.status;
  const type = instruments.find((i) => i.code === query.instrument)?.assessmentType;
  if (type !== undefined) filter.assessmentType = type;
  if (query.from) filter.invitedFrom = `${query.from}T00:00:00.000Z`;
  if (query.to) filter.invitedBefore = nextDay(query.to);
  if (query.flagged !== undefined) filter.flagged = query.flagged;
  const page: ConsolePageRequest = { sort: query.sort, descending: query.descending, limit };
  if (query.cursor && 'after' in query.cursor) page.after = query.cursor.after;
  if (query.cursor && 'before' in query.cursor) page.before = query.cursor.before;
  return { filter, page };
}
