import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../../src/paths.js';

/** Keeps `npm run bench` working; it measures nothing worth keeping and asserts no timing. */
describe('the benchmark suite', () => {
  test('a smoke run of a second or two completes and reports every measurement', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [join(ROOT, 'dist', 'bench', 'run.js'), '--smoke'], { timeout: 120_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const summary = JSON.parse(out);
    for (const key of ['candidate', 'assessment', 'portal']) {
      assert.ok(summary[key].rps > 0, key);
      assert.ok(summary[key].ratio > 0, key);
    }
    assert.ok(summary.ceiling > 0);
    assert.equal(summary.bad, 0, 'no errors or non-2xx responses');
    assert.equal(summary.latency.count, 5);
    assert.ok(summary.latency.p50 > 0);
    assert.ok(summary.rss > 0);
  });
});
