import { loadInstruments } from '../../src/measurement/instruments/load.js';
import { loadCompetences } from '../../src/measurement/load.js';
import { BUILT_IN_CONTENT_DIR, COMPETENCES_FILE } from '../../src/platform/paths.js';

/** The shipped content, loaded as the server loads it. */
export const instruments = loadInstruments(BUILT_IN_CONTENT_DIR);
export const tma170 = instruments.get(0)!;
export const tma312 = instruments.get(1)!;
export const competences = loadCompetences(COMPETENCES_FILE, instruments);
