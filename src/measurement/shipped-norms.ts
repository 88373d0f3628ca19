import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../db/database.js';
import type { Instruments } from './instruments/load.js';
import { ContentError, readContent } from './load.js';
import { parseNormFile } from './norm-groups.js';
import { activateNormGroup, countNormGroups, handOverNormGroup, insertNormGroup, normGroupIds, storedNormGroups } from './norms-store.js';
import type { CompetenceModel } from './types.js';

interface Manifest {
  /** `instrument` is the file's own instrument code, so a start that finds every group stored, with its description, reads no norm file. */
  groups: Array<{ file: string; instrument: string; active?: boolean }>;
}

/**
 * The real norm groups Assay ships (content/norms/shipped.json), stored at every start: each once,
 * with a fixed id (its file's name and the instrument's content version), so instances starting
 * together store it once. The one marked active becomes its instrument's default only when the
 * instrument had no norm group before: on a first start, never over an operator's own choice, and
 * never again after an operator deactivated it. A group new with a content version takes the place of
 * the same file's group of an earlier version (default, portals' choices), whose items and norms no
 * longer match what is asked; results pinned to that one keep it. Groups of instruments not loaded
 * are skipped. Returns the ids it activated.
 */
export async function ensureShippedNorms(store: Store, instruments: Instruments, model: CompetenceModel, dir: string): Promise<string[]> {
  const manifestFile = join(dir, 'shipped.json');
  if (!existsSync(manifestFile)) return [];
  const manifest = readContent(manifestFile) as Manifest;
  const loaded = manifest.groups.flatMap((g) => {
    const instrument = [...instruments.values()].find((i) => i.code === g.instrument);
    return instrument ? [{ ...g, instrument, id: `${g.file.replace(/\.json$/, '')}-${instrument.version}` }] : [];
  });
  const found = await storedNormGroups(
    store,
    loaded.map((g) => g.id),
  );
  const stored = new Map(found.map((g) => [g.id, g.described]));
  // Stored before norm files had descriptions: read again for the description alone.
  for (const g of loaded.filter((x) => stored.get(x.id) === false)) {
    const group = parseNormFile(readContent(join(dir, g.file)), instruments, model);
    if (group.description) await insertNormGroup(store, { ...group, id: g.id });
  }
  const missing = loaded.filter((g) => !stored.has(g.id));
  const empty = new Set<number>();
  for (const type of new Set(missing.map((g) => g.instrument.assessmentType))) if ((await countNormGroups(store, type)) === 0) empty.add(type);
  const activated: string[] = [];
  for (const g of missing) {
    const group = parseNormFile(readContent(join(dir, g.file)), instruments, model);
    if (group.assessmentType !== g.instrument.assessmentType)
      throw new ContentError(`${g.file} is for another instrument than shipped.json says (${g.instrument.code})`);
    await insertNormGroup(store, { ...group, id: g.id });
    const earlier = new RegExp(`^${g.file.replace(/\.json$/, '')}-\\d+(\\.\\d+)*$`);
    for (const old of (await normGroupIds(store, g.instrument.assessmentType)).filter((id) => id !== g.id && earlier.test(id)))
      await handOverNormGroup(store, old, g.id);
    if (g.active && empty.has(g.instrument.assessmentType)) {
      await activateNormGroup(store, g.id);
      activated.push(g.id);
    }
  }
  return activated;
}
