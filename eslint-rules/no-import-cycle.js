// An import cycle between this repository's own modules is an error, type-only imports included:
// import-x/no-cycle leaves those out by design, and a cycle through types still ties two modules'
// designs together. Imports are read with TypeScript's own scanner (ts.preProcessFile: static,
// type-only, re-exports and dynamic imports alike); only relative specifiers are followed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOTS = ['src', 'test', 'bench'];
// A long-lived ESLint (an editor's) sees files change: the graph is read again after this long.
const GRAPH_TTL_MS = 5_000;

/** The file a relative specifier names: `./x.js` is `./x.ts` in the sources. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = base.endsWith('.js') ? [base.slice(0, -3) + '.ts', base] : [base + '.ts', join(base, 'index.ts'), base];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

function importsOf(file, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => ({ ...imported, target: resolveSpecifier(file, imported.fileName) }))
    .filter((imported) => imported.target);
}

function sources(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

let cached;

/** Every source file's imports of other source files, as on disk. */
function graphOf(root) {
  if (cached && cached.root === root && Date.now() - cached.at < GRAPH_TTL_MS) return cached.graph;
  const graph = new Map();
  for (const file of ROOTS.flatMap((dir) => sources(join(root, dir)))) {
    graph.set(file, [...new Set(importsOf(file, readFileSync(file, 'utf8')).map((i) => i.target))]);
  }
  cached = { root, at: Date.now(), graph };
  return graph;
}

/** The shortest import path from `start` back to `goal`, or undefined. `goal`'s own imports on disk are not followed. */
function pathBack(graph, start, goal) {
  const parent = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === goal) {
      const path = [];
      for (let at = file; at !== undefined; at = parent.get(at)) path.unshift(at);
      return path;
    }
    for (const next of graph.get(file) ?? []) {
      if (!parent.has(next)) {
        parent.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between modules of src, test and bench, type-only imports counted' },
    schema: [],
    messages: { cycle: 'Import cycle: {{path}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    return {
      'Program:exit'() {
        const graph = graphOf(context.cwd);
        const text = context.sourceCode.text;
        for (const imported of importsOf(file, text)) {
          const back = imported.target === file ? [file] : pathBack(graph, imported.target, file);
          if (!back) continue;
          const path = [file, ...back].map((f) => relative(context.cwd, f)).join(' → ');
          context.report({
            loc: { start: context.sourceCode.getLocFromIndex(imported.pos), end: context.sourceCode.getLocFromIndex(imported.end) },
            messageId: 'cycle',
            data: { path },
          });
        }
      },
    };
  },
};
