import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Store } from '../db/database.js';
import { read } from '../db/prepared.js';
import { DomainError } from '../domain/errors.js';
import type { LifecycleStatus } from '../domain/status.js';
import type { AssessmentRow } from './assessments-store.js';

/** What the console's candidate list may be narrowed to; instants are ISO-8601 UTC. */
export interface ConsoleFilter {
  /** Case-insensitive start of the first name, last name, e-mail or ExternalId (ASCII letters only on SQLite, whose lower() knows no others). */
  search?: string;
  status?: LifecycleStatus;
  assessmentType?: number;
  /** Invited (created_at) at or after this instant. */
  invitedFrom?: string;
  /** Invited before this instant. */
  invitedBefore?: string;
  /** true: only assessments with integrity flags; false: only those without. */
  flagged?: boolean;
}

export type ConsoleSort = 'invited' | 'completed' | 'name';

/** A page: its order, its size, and the row it starts after or ends before (an AnalysisId of this tenant). */
export interface ConsolePageRequest {
  sort: ConsoleSort;
  descending: boolean;
  limit: number;
  after?: string | undefined;
  before?: string | undefined;
}

/** One row of the list: the assessment as stored, its candidate's name and e-mail, and its status as callers see it. */
export interface ConsoleRow {
  assessment: AssessmentRow;
  firstName: string;
  preposition: string;
  lastName: string;
  email: string;
  status: LifecycleStatus;
  /** The integrity flags' codes; [] for none or before completion. */
  flags: string[];
}

export interface ConsolePage {
  rows: ConsoleRow[];
  /** The AnalysisId the next page starts after; null on the last page. */
  next: string | null;
  /** The AnalysisId the previous page ends before; null on the first page. */
  previous: string | null;
}

export const CONSOLE_STATUSES: readonly LifecycleStatus[] = ['Created', 'Started', 'Completed', 'Expired', 'Cancelled'];

const OPEN = ['Created', 'Started'] as const;
// The largest code point: every string with prefix p sorts at or after p and before p + MAX, bytewise.
const MAX = '\u{10FFFF}';

/** Stored rows with this status as callers see it (lifecycle/rules.effectiveStatus, in SQL). */
function statusIs(status: LifecycleStatus, now: string): RawBuilder<SqlBool> {
  if (status === 'Expired') return sql<SqlBool>`a.status in (${sql.join(OPEN)}) and a.expires_at <= ${now}`;
  if (status === 'Completed' || status === 'Cancelled') return sql<SqlBool>`a.status = ${status}`;
  return sql<SqlBool>`a.status = ${status} and (a.expires_at is null or a.expires_at > ${now})`;
}

/** lower(column), compared bytewise on both databases (PostgreSQL's default collation is the locale's). */
function lowered(store: Store, column: string): RawBuilder<string> {
  return store.dialect === 'postgres' ? sql<string>`(lower(${sql.ref(column)}) collate "C")` : sql<string>`lower(${sql.ref(column)})`;
}

/** The filter's conditions, `status` left out when `withStatus` is false (the counts). */
function conditions(store: Store, tenantId: string, filter: ConsoleFilter, now: string, withStatus: boolean): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`a.tenant_id = ${tenantId}`];
  if (withStatus && filter.status !== undefined) parts.push(statusIs(filter.status, now));
  if (filter.assessmentType !== undefined) parts.push(sql<SqlBool>`a.assessment_type = ${filter.assessmentType}`);
  if (filter.invitedFrom !== undefined) parts.push(sql<SqlBool>`a.created_at >= ${filter.invitedFrom}`);
  if (filter.invitedBefore !== undefined) parts.push(sql<SqlBool>`a.created_at < ${filter.invitedBefore}`);
  if (filter.flagged === true) parts.push(sql<SqlBool>`a.integrity_flags is not null and a.integrity_flags <> '[]'`);
  if (filter.flagged === false) parts.push(sql<SqlBool>`(a.integrity_flags is null or a.integrity_flags = '[]')`);
  const term = filter.search?.trim().toLowerCase();
  if (term) {
    const starts = ['c.first_name', 'c.last_name', 'c.email', 'c.external_id'].map(
      (col) => sql<SqlBool>`(${lowered(store, col)} >= ${term} and ${lowered(store, col)} < ${term + MAX})`,
    );
    parts.push(sql<SqlBool>`(${sql.join(starts, sql` or `)})`);
  }
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

/** The sort's key expressions; analysis_id follows as the tie-breaker. Open assessments sort as completed at ''. */
function sortKeys(store: Store, sort: ConsoleSort): RawBuilder<unknown>[] {
  if (sort === 'invited') return [sql`a.created_at`];
  if (sort === 'completed') return [sql`coalesce(a.completed_at, '')`];
  return [lowered(store, 'c.last_name'), lowered(store, 'c.first_name')];
}

// The candidate's tenant named too, so an index of the tenant's candidates can lead (search, sort by name).
const from = (tenantId: string) => sql`assessments a join candidates c on c.external_id = a.external_id and c.tenant_id = ${tenantId}`;

interface Selected extends AssessmentRow {
  c_first_name: string;
  c_preposition: string;
  c_last_name: string;
  c_email: string;
}

function toRow(r: Selected, now: number): ConsoleRow {
  const { c_first_name, c_preposition, c_last_name, c_email, ...assessment } = r;
  const expired =
    (assessment.status === 'Created' || assessment.status === 'Started') && assessment.expires_at !== null && Date.parse(assessment.expires_at) <= now;
  return {
    assessment: { ...assessment, assessment_type: Number(assessment.assessment_type) },
    firstName: c_first_name,
    preposition: c_preposition,
    lastName: c_last_name,
    email: c_email,
    status: expired ? 'Expired' : assessment.status,
    flags: assessment.integrity_flags ? (JSON.parse(assessment.integrity_flags) as string[]) : [],
  };
}

const invalidCursor = () =>
  new DomainError('ValidationError', 'The page to continue from is no longer in this list: start again from the first page', {
    field: 'cursor',
    rule: 'cursor',
    location: 'querystring',
  });

/**
 * One page of the tenant's own assessments with their candidates, filtered and sorted, after or
 * before a row of the list (keyset: the anchor's keys are read again, so a cursor carries only an
 * AnalysisId). Another tenant's rows are never read, and another tenant's AnalysisId as a cursor
 * is refused as an unknown one is.
 */
export async function listConsolePage(
  store: Store,
  tenantId: string,
  filter: ConsoleFilter,
  page: ConsolePageRequest,
  now = new Date().toISOString(),
): Promise<ConsolePage> {
  const keys = sortKeys(store, page.sort);
  const where = conditions(store, tenantId, filter, now, true);
  const anchorId = page.after ?? page.before;
  let anchor: unknown[] | undefined;
  if (anchorId !== undefined) {
    const cols = keys.map((k, i) => sql`${k} as ${sql.ref(`k${i}`)}`);
    const found = await read(
      store,
      sql<Record<string, unknown>>`select ${sql.join(cols)} from ${from(tenantId)} where a.tenant_id = ${tenantId} and a.analysis_id = ${anchorId}`,
    );
    if (!found[0]) throw invalidCursor();
    anchor = keys.map((_, i) => found[0]![`k${i}`]);
  }
  // Walking backwards (a Previous page) reads in the opposite order and turns the rows round.
  const backwards = page.before !== undefined;
  const descending = page.descending !== backwards;
  const tuple = sql`(${sql.join([...keys, sql`a.analysis_id`])})`;
  const at = anchor && sql`(${sql.join([...anchor, anchorId])})`;
  const beyond = at ? (descending ? sql<SqlBool>` and ${tuple} < ${at}` : sql<SqlBool>` and ${tuple} > ${at}`) : sql``;
  const dir = descending ? sql`desc` : sql`asc`;
  const order = sql.join([...keys, sql`a.analysis_id`].map((k) => sql`${k} ${dir}`));
  const rows = await read(
    store,
    sql<Selected>`select a.*, c.first_name as c_first_name, c.preposition as c_preposition, c.last_name as c_last_name, c.email as c_email
    from ${from(tenantId)} where ${where}${beyond} order by ${order} limit ${page.limit + 1}`,
  );
  const more = rows.length > page.limit;
  if (more) rows.length = page.limit;
  // Whether any row lies on the anchor's other side (the anchor included): the link back.
  let back = false;
  if (at) {
    const behind = descending ? sql<SqlBool>`${tuple} >= ${at}` : sql<SqlBool>`${tuple} <= ${at}`;
    back = (await read(store, sql`select 1 as one from ${from(tenantId)} where ${where} and ${behind} limit 1`)).length > 0;
  }
  const clock = Date.parse(now);
  const list = rows.map((r) => toRow(r, clock));
  if (backwards) list.reverse();
  if (list.length === 0) return { rows: list, next: null, previous: null };
  const [hasNext, hasPrevious] = backwards ? [back, more] : [more, back];
  return { rows: list, next: hasNext ? list.at(-1)!.assessment.analysis_id : null, previous: hasPrevious ? list[0]!.assessment.analysis_id : null };
}

/**
 * How many of the tenant's assessments each status has under the filter, its own status left out.
 * One pass in stored-status order, counting apart the open ones past their expiry: grouping by
 * the derived status instead cost SQLite a sort and about three times the time (bench/NOTES.md).
 */
export async function countConsoleStatuses(
  store: Store,
  tenantId: string,
  filter: ConsoleFilter,
  now = new Date().toISOString(),
): Promise<Record<LifecycleStatus, number>> {
  const where = conditions(store, tenantId, filter, now, false);
  // The join is needed only to search by the candidate's fields.
  const tables = filter.search?.trim() ? from(tenantId) : sql`assessments a`;
  const rows = await read(
    store,
    sql<{ stored: 'Created' | 'Started' | 'Completed' | 'Cancelled'; n: number | string; past: number | string | null }>`
    select a.status as stored, count(*) as n, sum(case when a.expires_at <= ${now} then 1 else 0 end) as past
    from ${tables} where ${where} group by a.status`,
  );
  const counts = Object.fromEntries(CONSOLE_STATUSES.map((s) => [s, 0])) as Record<LifecycleStatus, number>;
  for (const r of rows) {
    const expired = r.stored === 'Created' || r.stored === 'Started' ? Number(r.past ?? 0) : 0;
    counts[r.stored] += Number(r.n) - expired;
    counts.Expired += expired;
  }
  return counts;
}

/** Every row of the filtered list in the page's order, read a page at a time (the export). */
export async function* walkConsoleList(
  store: Store,
  tenantId: string,
  filter: ConsoleFilter,
  order: { sort: ConsoleSort; descending: boolean },
  batch = 500,
  now = new Date().toISOString(),
): AsyncGenerator<ConsoleRow> {
  let after: string | undefined;
  for (;;) {
    const page = await listConsolePage(store, tenantId, filter, { ...order, limit: batch, after }, now);
    yield* page.rows;
    if (page.next === null) return;
    after = page.next;
  }
}
