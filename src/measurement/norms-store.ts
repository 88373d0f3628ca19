import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ScaleScore } from './instruments/types.js';
import type { SampleMember } from './norm-groups.js';
import type { CompetenceScore, IntegrityFlag, NormDescription, NormGroup, NormSampleAccount, NormTable } from './types.js';
import type { Store } from '../db/database.js';
import type { DB, NormGroupTable } from '../db/schema.js';
import { onePerStore } from '../db/store-caches.js';

const now = () => new Date().toISOString();

function toGroup(row: NormGroupTable): NormGroup {
  return {
    id: row.id,
    name: row.name,
    assessmentType: row.assessment_type,
    source: row.source,
    sampleSize: row.sample_size,
    collectedFrom: row.collected_from,
    collectedTo: row.collected_to,
    illustrative: row.illustrative === 1,
    contentVersion: row.content_version,
    language: row.language,
    table: JSON.parse(row.norms) as NormTable,
    ...(row.sample ? { sample: JSON.parse(row.sample) as NormSampleAccount } : {}),
    ...(row.description ? { description: JSON.parse(row.description) as NormDescription } : {}),
  };
}

// Norm groups never change once stored, so each is read and parsed once per process.
const parsedGroups = onePerStore(() => new Map<string, NormGroup>());

export async function findNormGroup(store: Store, id: string): Promise<NormGroup | undefined> {
  return parsedGroup(store, id, store.db);
}

/** `findNormGroup` where the caller holds a transaction: a read beside it may wait for it. `kept`: whose parsed groups to use. */
export async function findNormGroupIn(trx: Kysely<DB>, id: string, kept: Pick<Store, 'caches'>): Promise<NormGroup | undefined> {
  return parsedGroup(kept, id, trx);
}

async function parsedGroup(kept: Pick<Store, 'caches'>, id: string, db: Kysely<DB>): Promise<NormGroup | undefined> {
  const groups = parsedGroups(kept);
  const hit = groups.get(id);
  if (hit) return hit;
  const row = await db.selectFrom('norm_groups').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const group = toGroup(row);
  if (groups.size >= 1_000) groups.clear();
  groups.set(id, group);
  return group;
}

/** A group with whether it is its instrument's default; read afresh, for the operator's CLI. */
export async function showNormGroup(store: Store, id: string): Promise<(NormGroup & { active: boolean }) | undefined> {
  const row = await store.db.selectFrom('norm_groups').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { ...toGroup(row), active: row.active === 1 };
}

/** The group a completion pins: the portal's own choice for the instrument, else the instrument's active group. */
export async function normGroupInForce(store: Store, apiKeyId: string, assessmentType: number): Promise<string | null> {
  return inForce(store.db, apiKeyId, assessmentType);
}

/** `normGroupInForce` inside the caller's transaction. */
export async function normGroupInForceIn(trx: Kysely<DB>, apiKeyId: string, assessmentType: number): Promise<string | null> {
  return inForce(trx, apiKeyId, assessmentType);
}

async function inForce(db: Kysely<DB>, apiKeyId: string, assessmentType: number): Promise<string | null> {
  const own = await db
    .selectFrom('portal_norms')
    .select('norm_group_id')
    .where('api_key_id', '=', apiKeyId)
    .where('assessment_type', '=', assessmentType)
    .executeTakeFirst();
  if (own) return own.norm_group_id;
  const active = await db.selectFrom('norm_groups').select('id').where('assessment_type', '=', assessmentType).where('active', '=', 1).executeTakeFirst();
  return active?.id ?? null;
}

export type NewNormGroup = Omit<NormGroup, 'id'> & { id?: string };

/**
 * Stores a group (inactive); a given id that exists already keeps its tables, its results being
 * pinned to them, and gains the group's description if it had none. Returns the id.
 */
export async function insertNormGroup(store: Store, group: NewNormGroup): Promise<string> {
  const id = group.id ?? randomUUID();
  await store.write((trx) =>
    trx
      .insertInto('norm_groups')
      .values({
        id,
        name: group.name,
        assessment_type: group.assessmentType,
        source: group.source,
        sample_size: group.sampleSize,
        collected_from: group.collectedFrom,
        collected_to: group.collectedTo,
        illustrative: group.illustrative ? 1 : 0,
        content_version: group.contentVersion,
        language: group.language,
        norms: JSON.stringify(group.table),
        sample: group.sample ? JSON.stringify(group.sample) : null,
        description: group.description ? JSON.stringify(group.description) : null,
        active: 0,
        created_at: now(),
      })
      .onConflict((oc) =>
        group.description
          ? oc
              .column('id')
              .doUpdateSet({ description: JSON.stringify(group.description) })
              .where('norm_groups.description', 'is', null)
          : oc.column('id').doNothing(),
      )
      .execute(),
  );
  return id;
}

/** Makes the group its instrument's default, in place of the one before. */
export async function activateNormGroup(store: Store, id: string): Promise<boolean> {
  return store.write(async (trx) => {
    const group = await trx.selectFrom('norm_groups').select('assessment_type').where('id', '=', id).executeTakeFirst();
    if (!group) return false;
    await trx.updateTable('norm_groups').set({ active: 0 }).where('assessment_type', '=', group.assessment_type).where('id', '<>', id).execute();
    await trx.updateTable('norm_groups').set({ active: 1 }).where('id', '=', id).execute();
    return true;
  });
}

/** Leaves the instrument without a default group: later completions without a portal's own choice get no norms. */
export async function deactivateNormDefault(store: Store, assessmentType: number): Promise<number> {
  const r = await store.write((trx) =>
    trx.updateTable('norm_groups').set({ active: 0 }).where('assessment_type', '=', assessmentType).where('active', '=', 1).executeTakeFirst(),
  );
  return Number(r.numUpdatedRows);
}

/** Clears a portal's own choice for an instrument: its later completions get the instrument's default, if any. */
export async function clearPortalNormGroup(store: Store, apiKeyId: string, assessmentType: number): Promise<number> {
  const r = await store.write((trx) =>
    trx.deleteFrom('portal_norms').where('api_key_id', '=', apiKeyId).where('assessment_type', '=', assessmentType).executeTakeFirst(),
  );
  return Number(r.numDeletedRows);
}

/** A portal's (API key's) own group for the group's instrument. */
export async function setPortalNormGroup(store: Store, apiKeyId: string, id: string): Promise<boolean> {
  return store.write(async (trx) => {
    const group = await trx.selectFrom('norm_groups').select('assessment_type').where('id', '=', id).executeTakeFirst();
    if (!group) return false;
    await trx
      .insertInto('portal_norms')
      .values({ api_key_id: apiKeyId, assessment_type: group.assessment_type, norm_group_id: id })
      .onConflict((oc) => oc.columns(['api_key_id', 'assessment_type']).doUpdateSet({ norm_group_id: id }))
      .execute();
    return true;
  });
}

/**
 * Hands a group's place to its successor (a shipped group of a later content version): the
 * instrument's default if it was that, and every portal's own choice of it. Results pinned to it keep it.
 */
export async function handOverNormGroup(store: Store, from: string, to: string): Promise<void> {
  await store.write(async (trx) => {
    const was = await trx.selectFrom('norm_groups').select('active').where('id', '=', from).executeTakeFirst();
    if (was?.active === 1) {
      await trx.updateTable('norm_groups').set({ active: 0 }).where('id', '=', from).execute();
      await trx.updateTable('norm_groups').set({ active: 1 }).where('id', '=', to).execute();
    }
    await trx.updateTable('portal_norms').set({ norm_group_id: to }).where('norm_group_id', '=', from).execute();
  });
}

/** The ids of an instrument's stored groups. */
export async function normGroupIds(store: Store, assessmentType: number): Promise<string[]> {
  const rows = await store.db.selectFrom('norm_groups').select('id').where('assessment_type', '=', assessmentType).execute();
  return rows.map((r) => r.id);
}

/** Which of these group ids are stored, and which of those have a description. */
export async function storedNormGroups(store: Store, ids: readonly string[]): Promise<{ id: string; described: boolean }[]> {
  if (ids.length === 0) return [];
  const rows = await store.db.selectFrom('norm_groups').select(['id', 'description']).where('id', 'in', ids).execute();
  return rows.map((r) => ({ id: r.id, described: r.description !== null }));
}

export async function countNormGroups(store: Store, assessmentType: number): Promise<number> {
  const row = await store.db
    .selectFrom('norm_groups')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('assessment_type', '=', assessmentType)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listNormGroups(store: Store) {
  return store.db
    .selectFrom('norm_groups')
    .select(['id', 'name', 'assessment_type', 'sample_size', 'collected_from', 'collected_to', 'source', 'illustrative', 'active', 'created_at'])
    .select((eb) =>
      eb
        .selectFrom('portal_norms')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('portal_norms.norm_group_id', '=', 'norm_groups.id')
        .as('portals'),
    )
    .orderBy('created_at')
    .execute();
}

export interface SampleFilter {
  assessmentType: number;
  /** Only assessments completed in this language. */
  language?: string;
  tenantId?: string;
  from?: string;
  to?: string;
}

/** The stored results of completed assessments that a norm group is built from: only those whose results may be used. */
export async function normSample(store: Store, filter: SampleFilter): Promise<SampleMember[]> {
  let q = store.db
    .selectFrom('assessments')
    .select(['analysis_id', 'scores', 'competence_scores', 'integrity_flags', 'content_version'])
    // The candidate's Gender, for the sample's make-up; an erased candidate's is unknown.
    .select((eb) =>
      eb
        .selectFrom('candidates')
        .select('gender')
        .whereRef('candidates.tenant_id', '=', 'assessments.tenant_id')
        .whereRef('candidates.external_id', '=', 'assessments.external_id')
        .as('gender'),
    )
    .where('status', '=', 'Completed')
    .where('assessment_type', '=', filter.assessmentType)
    .where('scores', 'is not', null)
    .where('competence_scores', 'is not', null)
    // Only results the candidate let be used: none while a release is pending, declined or withdrawn.
    .where((eb) => eb.or([eb('results_release', 'is', null), eb('results_release', '=', 'released')]));
  if (filter.tenantId) q = q.where('tenant_id', '=', filter.tenantId);
  if (filter.language) q = q.where('language', '=', filter.language as 'nl' | 'en');
  if (filter.from) q = q.where('completed_at', '>=', filter.from);
  if (filter.to) q = q.where('completed_at', '<', filter.to);
  const rows = await q.execute();
  const answers = new Map<string, Map<string, number>>(rows.map((r) => [r.analysis_id, new Map()]));
  // In chunks: a query's parameters are bounded (SQLite's 32,766, PostgreSQL's 65,535).
  for (let at = 0; at < rows.length; at += 1_000) {
    const ids = rows.slice(at, at + 1_000).map((r) => r.analysis_id);
    const found = await store.db.selectFrom('assessment_answers').select(['analysis_id', 'item_id', 'value']).where('analysis_id', 'in', ids).execute();
    for (const a of found) answers.get(a.analysis_id)!.set(a.item_id, a.value);
  }
  return rows.map((r) => ({
    scales: JSON.parse(r.scores!) as ScaleScore[],
    competences: JSON.parse(r.competence_scores!) as CompetenceScore[],
    flags: JSON.parse(r.integrity_flags ?? '[]') as IntegrityFlag[],
    answers: answers.get(r.analysis_id)!,
    contentVersion: r.content_version,
    gender: r.gender ?? 0,
  }));
}
