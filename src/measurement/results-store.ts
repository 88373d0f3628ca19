import type { ScaleScore } from './instruments/types.js';
import type { StoredResult } from './result.js';
import type { CompetenceScore, IntegrityFlag, NormGroup } from './types.js';
import type { AssessmentTable as AssessmentRow } from '../db/schema.js';
import type { Store } from '../db/database.js';
import { findNormGroup } from './norms-store.js';

/** What completion stored on the row; undefined until it is completed. */
export function storedResult(row: AssessmentRow): StoredResult | undefined {
  if (row.status !== 'Completed' || !row.scores) return undefined;
  return {
    scales: JSON.parse(row.scores) as ScaleScore[],
    // Completed before results existed: no competences, consistency or flags were stored.
    competences: row.competence_scores ? (JSON.parse(row.competence_scores) as CompetenceScore[]) : [],
    consistency: row.consistency,
    flags: row.integrity_flags ? (JSON.parse(row.integrity_flags) as IntegrityFlag[]) : [],
  };
}

/** The norm group pinned at completion, if any. */
export async function pinnedNormGroup(store: Store, row: AssessmentRow): Promise<NormGroup | null> {
  return row.norm_group_id ? ((await findNormGroup(store, row.norm_group_id)) ?? null) : null;
}

/** The norm groups pinned by the rows, by id: each read once (and kept, norms-store.ts). */
export async function pinnedNormGroups(store: Store, rows: readonly AssessmentRow[]): Promise<Map<string, NormGroup | null>> {
  const ids = [...new Set(rows.flatMap((r) => (r.norm_group_id ? [r.norm_group_id] : [])))];
  return new Map(await Promise.all(ids.map(async (id) => [id, (await findNormGroup(store, id)) ?? null] as const)));
}
