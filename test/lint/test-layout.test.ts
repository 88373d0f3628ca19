import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';

// test/ mirrors src/: a test file sits in the test/ folder named like the src/ folder whose code it
// tests (sub-folders too), or at test/'s root for src/'s root files, or in one of these folders,
// whose subject is no single room.
const CROSS_CUTTING = ['bench', 'content', 'e2e', 'generated', 'helpers', 'lint', 'multi', 'reliability'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

/** The test files (relative to `testDir`) whose folder is neither in src/ nor cross-cutting. */
function misplaced(testDir: string, srcDir: string): string[] {
  return testFiles(testDir)
    .map((f) => relative(testDir, f))
    .filter((f) => {
      const folder = dirname(f);
      if (folder === '.') return false;
      if (CROSS_CUTTING.includes(folder.split(sep)[0]!)) return false;
      try {
        return !statSync(join(srcDir, folder)).isDirectory();
      } catch {
        return true;
      }
    })
    .sort();
}

describe('test/ mirrors src/', () => {
  test('every test file sits in a folder src/ has, or in a cross-cutting one', () => {
    const found = misplaced(join(ROOT, 'test'), join(ROOT, 'src'));
    assert.deepEqual(found, []);
    // The walk saw the tree: the rooms' tests and a sub-folder's.
    assert.ok(testFiles(join(ROOT, 'test')).some((f) => f.endsWith(join('db', 'migrations', 'heads-version.test.ts'))));
  });

  test('a test in a folder src/ lacks is caught, at the top and one level down', () => {
    const root = mkdtempSync(join(tmpdir(), 'assay-layout-'));
    try {
      const put = (path: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), '');
      };
      for (const dir of ['src/db/migrations', 'src/webhooks']) mkdirSync(join(root, dir), { recursive: true });
      put('test/db/migrations/ok.test.ts');
      put('test/webhooks/ok.test.ts');
      put('test/root-file.test.ts');
      put('test/e2e/browser.test.ts');
      put('test/helpers/not-a-test.ts');
      put('test/store/misplaced.test.ts');
      put('test/webhooks/nested/misplaced.test.ts');
      put('test/domain/results/misplaced.test.ts');
      assert.deepEqual(misplaced(join(root, 'test'), join(root, 'src')), [
        join('domain', 'results', 'misplaced.test.ts'),
        join('store', 'misplaced.test.ts'),
        join('webhooks', 'nested', 'misplaced.test.ts'),
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
