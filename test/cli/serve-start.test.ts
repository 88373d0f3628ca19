import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { exitOf } from '../helpers/process.js';

/** pino's JSON lines in `output`. */
const logLines = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });

const PRIVATE_WARNING = /WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: webhooks may reach .*never in production/;
const MISSPELLED = /is not a setting and is ignored/;

/** What each server here is started with: a data directory of its own, its SQLite database there, and the default log level (no drain on SIGTERM, as every process suite). */
const own = (freshDir: () => string) => ({ DATA_DIR: freshDir(), DATABASE_URL: undefined, LOG_LEVEL: undefined });

suiteOnEachDatabase(
  'bin/assay serve at start: a busy port, private-network webhooks',
  { on: 'sqlite', process: true, start: false, tenant: false },
  ({ spawn, spawnChild, freshDir }) => {
    test('a second server on a port in use exits non-zero with one line naming PORT, no stack trace', async () => {
      const first = await spawn(own(freshDir));
      await first.waitForOutput('Assay is serving');
      // The positive control of the warning tests below: without the setting, no such warning;
      // without a misspelled one, no warning about one.
      assert.doesNotMatch(first.output(), PRIVATE_WARNING);
      assert.doesNotMatch(first.output(), MISSPELLED);

      const second = spawnChild({ ...own(freshDir), PORT: String(first.port) });
      const { code, stdout, stderr } = await exitOf(second);
      const output = `${stdout}\n${stderr}`;
      assert.notEqual(code, 0, output);
      assert.notEqual(code, null, `killed, not exited:\n${output}`);
      assert.equal(stderr, `assay: Port ${first.port} on 127.0.0.1 is in use (is another Assay running?): set PORT to a free port\n`);
      assert.doesNotMatch(output, /^\s+at /m, 'no stack trace');
      assert.doesNotMatch(output, /EADDRINUSE/);
      // The first server is untouched.
      assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
      assert.equal(await first.stop('SIGTERM'), 0);
    });

    test('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true is warned about in the log at start', async () => {
      const s = await spawn({ ...own(freshDir), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
      await s.waitForOutput('Assay is serving');
      const warnings = logLines(s.output()).filter((l) => PRIVATE_WARNING.test(l.msg));
      assert.equal(warnings.length, 1, s.output());
      assert.equal(warnings[0]!.level, 40, 'logged at warn');
      assert.equal(await s.stop('SIGTERM'), 0);
    });

    test('a variable one or two edits from a setting is warned about at start, naming the setting, never the value', async () => {
      const s = await spawn({
        ...own(freshDir),
        WEBHOOK_ALLOW_PRIVATE_NETWORK: 'true',
        ENCRYPTON_KEY: 'value-that-may-be-a-secret-7Qx',
        // Neither a setting nor near one: no warning.
        ASSAY_DEPLOY_COLOUR: 'blue',
      });
      await s.waitForOutput('Assay is serving');
      const warnings = logLines(s.output()).filter((l) => MISSPELLED.test(l.msg));
      assert.deepEqual(
        warnings.map((l) => [l.level, l.msg]),
        [
          [40, 'ENCRYPTON_KEY is not a setting and is ignored: did you mean ENCRYPTION_KEY?'],
          [40, 'WEBHOOK_ALLOW_PRIVATE_NETWORK is not a setting and is ignored: did you mean WEBHOOK_ALLOW_PRIVATE_NETWORKS?'],
        ],
        s.output(),
      );
      assert.ok(!s.output().includes('value-that-may-be-a-secret-7Qx'), 'the value is never printed');
      // It was ignored indeed: no private-network warning.
      assert.doesNotMatch(s.output(), PRIVATE_WARNING);
      assert.equal(await s.stop('SIGTERM'), 0);
    });
  },
);
