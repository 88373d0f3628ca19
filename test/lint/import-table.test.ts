import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';

// docs/ARCHITECTURE.md's "Who imports whom" table against the import lines of src/**/*.ts: a cell lists
// every folder (or root file) the row's folder imports from, each optionally followed by a note in
// parentheses; "nothing in `src/`" is none.
const SRC = join(ROOT, 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The folder under src/ a file is in, as the table names it (`api/`), or the root file itself (`config.ts`). */
function unitOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? `${parts[0]}/` : parts[0]!;
}

/** Folder to the folders and root files it imports from, from the source's import lines. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of tsFiles(SRC)) {
    const from = unitOf(file);
    if (!from.endsWith('/')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)) {
      const target = join(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
      if (!target.startsWith(SRC + sep)) continue;
      const to = unitOf(target);
      if (to !== from) (graph.get(from) ?? graph.set(from, new Set()).get(from)!).add(to);
    }
    if (!graph.has(from)) graph.set(from, new Set());
  }
  return graph;
}

/** The table's rows: folder to what its cell lists. */
function documentedTable(doc = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8')): Map<string, Set<string>> {
  const section = doc.split('### Who imports whom')[1]?.split(/\n#/)[0] ?? '';
  const rows = new Map<string, Set<string>>();
  for (const line of section.split('\n')) {
    const m = /^\| `([a-z-]+\/)` \| (.+) \|$/.exec(line);
    if (!m) continue;
    const cell = m[2]!.replace(/\([^)]*\)/g, '');
    const items = cell.trim() === 'nothing in `src/`' ? [] : cell.split(',').map((s) => s.trim().replace(/^`(.+)`$/, '$1'));
    rows.set(m[1]!, new Set(items.map((i) => (i.endsWith('.ts') ? i : `${i}/`))));
  }
  return rows;
}

describe("ARCHITECTURE's import table", () => {
  test('has a row for every folder of src/, and each row lists exactly what the folder imports', () => {
    const real = importGraph();
    const table = documentedTable();
    assert.ok(real.size >= 15 && table.size >= 1, `${real.size} folders, ${table.size} rows`);
    const sorted = (s: Set<string> | undefined) => [...(s ?? [])].sort();
    assert.deepEqual([...table.keys()].sort(), [...real.keys()].sort(), 'one row per folder');
    for (const [folder, imports] of real) assert.deepEqual(sorted(table.get(folder)), sorted(imports), `the row for ${folder}`);
  });

  test('the reader takes notes out, keeps root files and reads "nothing" as none', () => {
    const doc =
      '### Who imports whom\n\n| Folder | Imports from |\n| --- | --- |\n| `domain/` | nothing in `src/` |\n| `ops/` | db, webhooks (signing, metrics), `config.ts` |\n';
    const table = documentedTable(doc);
    assert.deepEqual([...table.get('domain/')!], []);
    assert.deepEqual([...table.get('ops/')!], ['db/', 'webhooks/', 'config.ts']);
  });
});
