import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Instrument } from './types.js';
import { BUILT_IN_CONTENT_DIR } from '../../platform/paths.js';
import { instrumentProblems, EXPECTED, OPTIONAL_IN_CONTENT_DIR } from './validate.js';

export class InstrumentError extends Error {}

export type Instruments = ReadonlyMap<number, Instrument>;

/**
 * Loads and validates tma170.json, tma312.json and spi.json from `dir`; refuses to start on any
 * problem. A folder without spi.json gets the built-in one: a published inventory, not content to replace.
 */
export function loadInstruments(dir: string): Instruments {
  const loaded = new Map<number, Instrument>();
  for (const code of Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>) {
    const own = join(dir, `${code.toLowerCase()}.json`);
    const file = OPTIONAL_IN_CONTENT_DIR.has(code) && !existsSync(own) ? join(BUILT_IN_CONTENT_DIR, `${code.toLowerCase()}.json`) : own;
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new InstrumentError(`Cannot read ${file}: ${(error as Error).message}`);
    }
    const problems = instrumentProblems(data, code);
    if (problems.length > 0) {
      const shown = problems
        .slice(0, 10)
        .map((p) => `  - ${p}`)
        .join('\n');
      const more = problems.length > 10 ? `\n  ... and ${problems.length - 10} more` : '';
      throw new InstrumentError(`${file} is not a valid ${code} instrument:\n${shown}${more}`);
    }
    const instrument = data as Instrument;
    loaded.set(instrument.assessmentType, instrument);
  }
  return loaded;
}
