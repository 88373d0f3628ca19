import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';

describe("the benchmark's options", () => {
  test('an unknown option or a number that is not one ends the run at once, saying which', { timeout: 30_000 }, async () => {
    const cases: Array<[string[], string]> = [
      [['--smok'], "Unknown option '--smok'"],
      [['--smoke', '--rounds', 'x'], '--rounds wants a number'],
    ];
    for (const [args, says] of cases) {
      const { code, stderr } = await new Promise<{ code: unknown; stderr: string }>((resolve) =>
        execFile(process.execPath, [join(ROOT, 'dist', 'bench', 'run.js'), ...args], { timeout: 10_000 }, (err, _stdout, stderr) =>
          resolve({ code: err && (err as { code?: unknown }).code, stderr }),
        ),
      );
      assert.equal(code, 1, `${args.join(' ')}: exit code`);
      assert.ok(stderr.includes(says), `${args.join(' ')}: ${stderr}`);
    }
  });
});
