import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/platform/paths.js';

/** The run log: every benchmark run's row, by mode. bench/README.md keeps only the status. */
export const RESULTS_FILE = join(ROOT, 'bench', 'RESULTS.md');

/** The markers run.ts writes after, one table each. */
export const MARKERS = [
  '<!-- results -->',
  '<!-- scaling -->',
  '<!-- hostile -->',
  '<!-- campaign -->',
  '<!-- mail -->',
  '<!-- norms -->',
  '<!-- list -->',
  '<!-- walk -->',
] as const;

/** Adds a row at the end of the table that follows `marker` in `file` (bench/RESULTS.md). */
export function insertRow(marker: (typeof MARKERS)[number], cells: Array<string | number>, file = RESULTS_FILE): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.indexOf(marker);
  if (at < 0) throw new Error(`${file} has no ${marker} marker`);
  let end = at + 1;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  lines.splice(end, 0, `| ${cells.join(' | ')} |`);
  writeFileSync(file, lines.join('\n'));
}
