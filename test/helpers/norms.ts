import { join } from 'node:path';
import { loadCompetences, readContent } from '../../src/measurement/load.js';
import { parseNormFile } from '../../src/measurement/norm-groups.js';
import { BUILT_IN_CONTENT_DIR, COMPETENCES_FILE, EXAMPLE_NORMS_DIR } from '../../src/platform/paths.js';
import type { Store } from '../../src/db/database.js';
import { activateNormGroup, insertNormGroup } from '../../src/measurement/norms-store.js';
import { loadInstruments } from '../../src/measurement/instruments/load.js';

/**
 * For tests that need stens in every list: the shipped example tables, stored as a group that is
 * not marked illustrative (an illustrative group never fills the vendor's lists) and made each
 * instrument's default. The tables are the example files' own, so oracles can read them there.
 */
export async function activateTestNorms(store: Store): Promise<void> {
  const instruments = loadInstruments(BUILT_IN_CONTENT_DIR);
  const model = loadCompetences(COMPETENCES_FILE, instruments);
  for (const instrument of instruments.values()) {
    // The SPI ships real norms, not an illustrative example.
    if (instrument.code === 'SPI') continue;
    // Without the example's description, which says it is illustrative: this group is not.
    const { description: _illustrativeOnly, ...group } = parseNormFile(
      readContent(join(EXAMPLE_NORMS_DIR, `example-${instrument.code.toLowerCase()}.json`)),
      instruments,
      model,
    );
    const id = await insertNormGroup(store, {
      ...group,
      name: `Test norms (${instrument.code})`,
      illustrative: false,
      id: `test-${instrument.code.toLowerCase()}`,
    });
    await activateNormGroup(store, id);
  }
}
