import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';

/** Adds a row at the end of the table that follows `marker` in bench/README.md. */
export function insertRow(marker: string, cells: Array<string | number>): void {
  const file = join(ROOT, 'bench', 'README.md');
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.indexOf(marker);
  if (at < 0) throw new Error(`bench/README.md has no ${marker} marker`);
  let end = at + 1;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  lines.splice(end, 0, `| ${cells.join(' | ')} |`);
  writeFileSync(file, lines.join('\n'));
}
