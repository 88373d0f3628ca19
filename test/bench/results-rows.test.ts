import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { insertRow, MARKERS, RESULTS_FILE } from '../../bench/results-rows.js';
import { ROOT } from '../../src/platform/paths.js';

describe("the benchmark's run log", () => {
  test('bench/RESULTS.md has a table after every marker a run writes after', () => {
    const lines = readFileSync(RESULTS_FILE, 'utf8').split('\n');
    for (const marker of MARKERS) {
      const at = lines.indexOf(marker);
      assert.ok(at >= 0, `${marker} is missing`);
      assert.match(lines[at + 1]!, /^\| date \|/, `${marker}: a header row follows`);
      assert.match(lines[at + 2]!, /^\| --- \|/, `${marker}: then its separator`);
    }
  });

  test('a row goes to the end of its own table, and nowhere else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-results-'));
    try {
      const file = join(dir, 'RESULTS.md');
      copyFileSync(RESULTS_FILE, file);
      const before = readFileSync(file, 'utf8').split('\n');
      insertRow('<!-- scaling -->', ['2099-01-01', 'test', 'x'], file);
      const after = readFileSync(file, 'utf8').split('\n');
      assert.equal(after.length, before.length + 1);
      const at = after.indexOf('| 2099-01-01 | test | x |');
      assert.ok(at > after.indexOf('<!-- scaling -->'));
      assert.ok(after[at - 1]!.startsWith('|'), 'the row before is the table');
      assert.ok(!after[at + 1]!.startsWith('|'), "the row is the table's last");
      assert.deepEqual([...after.slice(0, at), ...after.slice(at + 1)], before);
      assert.throws(() => insertRow('<!-- campaign -->', ['x'], join(ROOT, 'package.json')), /no <!-- campaign --> marker/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bench/README.md stays a status page: at most 300 lines, no run log', () => {
    const readme = readFileSync(join(ROOT, 'bench', 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 300, `${readme.split('\n').length} lines`);
    for (const marker of MARKERS) assert.ok(!readme.includes(marker), `${marker} in bench/README.md`);
  });
});
