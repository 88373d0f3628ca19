import { itemKeys, type Instrument } from './instruments/types.js';
import type { CompetenceModel, NormReliability } from './types.js';
import { compositeReliability, reliability, stenSem } from './reliability.js';

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const finite = <K extends string>(key: K, x: number): Partial<Record<K, number>> => (Number.isFinite(x) ? ({ [key]: round4(x) } as Record<K, number>) : {});

/**
 * The reliability evidence a norm group records, from the item answers of its sample: per scale,
 * alpha with Feldt's interval, the SEM of the scale mean (raw units) and in stens, and each item's
 * statistics; per competence, Mosier's composite reliability of its weighted scales.
 */
export function normEvidence(
  instrument: Instrument,
  model: CompetenceModel,
  answers: ReadonlyArray<ReadonlyMap<string, number>>,
): { scales: Record<string, NormReliability>; competences: Record<string, NormReliability> } {
  const { min, max } = instrument.responseScale;
  const scales: Record<string, NormReliability> = {};
  const means = new Map<string, number[]>();
  for (const scale of instrument.scales) {
    // Each item that counts for the scale, keyed as it is there.
    const items = instrument.items.flatMap((item) => itemKeys(item).flatMap((k) => (k.scale === scale.id ? [{ id: item.id, keying: k.keying }] : [])));
    if (items.length < 2) continue;
    const rows = answers.map((a) => items.map((item) => (item.keying === 'negative' ? min + max - a.get(item.id)! : a.get(item.id)!)));
    means.set(
      scale.id,
      rows.map((r) => r.reduce((s, x) => s + x, 0) / items.length),
    );
    const r = reliability(rows);
    // A scale every member answered the same way has no variance to speak of: no figure.
    if (!Number.isFinite(r.alpha)) continue;
    scales[scale.id] = {
      alpha: round4(r.alpha),
      alphaLower: round4(r.alphaLower),
      alphaUpper: round4(r.alphaUpper),
      // The scale score is the item mean, so its SEM is the item sum's divided by the item count.
      sem: round4(r.sem / items.length),
      semSten: round4(stenSem(r.alpha)),
      items: items.map((item, j) => {
        const stats = r.itemStatistics[j]!;
        // Alpha of one remaining item does not exist (a two-item scale); an item without variance has no correlation.
        return { id: item.id, ...finite('itemRest', stats.itemRest), ...finite('alphaIfDeleted', stats.alphaIfDeleted) };
      }),
    };
  }
  const competences: Record<string, NormReliability> = {};
  for (const c of model.competences) {
    const parts = c.scales.filter((w) => scales[w.scale] && means.has(w.scale));
    if (parts.length !== c.scales.length) continue;
    const columns = parts.map((w) => means.get(w.scale)!);
    const cov = columns.map((x) => columns.map((y) => covarianceOf(x, y)));
    // A reversed scale enters as (min + max − score): the same as a negative weight.
    const rel = compositeReliability(
      parts.map((w) => w.weight),
      cov,
      parts.map((w) => scales[w.scale]!.alpha),
    );
    let variance = 0;
    parts.forEach((wi, i) => parts.forEach((wj, j) => (variance += wi.weight * wj.weight * cov[i]![j]!)));
    const total = parts.reduce((s, w) => s + Math.abs(w.weight), 0);
    if (!Number.isFinite(rel)) continue;
    competences[c.code] = {
      alpha: round4(rel),
      sem: round4((Math.sqrt(variance) / total) * Math.sqrt(1 - Math.min(1, Math.max(0, rel)))),
      semSten: round4(stenSem(rel)),
    };
  }
  return { scales, competences };
}

function covarianceOf(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (x[i]! - mx) * (y[i]! - my);
  return s / (n - 1);
}
