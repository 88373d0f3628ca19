import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { exitOf } from '../helpers/process.js';
import { within } from '../helpers/ticks.js';

// Two real `bin/assay serve` processes on one data folder and database: one per SQLite file, many on PostgreSQL.
suiteOnEachDatabase('bin/assay serve twice on one data folder', { process: true, start: false, tenant: false }, ({ db, spawn, spawnChild, cliEnv }) => {
  if (db === 'sqlite') {
    test('SQLite: the second refuses in one line and exits non-zero; after the first is killed, a new one starts', async () => {
      const first = await spawn();
      const second = spawnChild({ PORT: '0' });
      const { code, stdout, stderr } = await exitOf(second);
      const path = cliEnv.DATABASE_URL!.slice('sqlite:'.length);
      assert.equal(code, 1, `killed or served, not refused:\n${stdout}\n${stderr}`);
      assert.equal(
        stderr,
        `assay: Another Assay is serving ${path} (it holds ${path}-serve.lock); one process per SQLite file: stop it first, or give this one a DATA_DIR of its own\n`,
      );
      assert.equal(stdout, '', 'nothing started');
      assert.equal((await fetch(`${first.url}/healthz`)).status, 200, 'the first is untouched');

      // A lock left by a process that cannot let go of it: the kernel's goes with the process.
      first.child.kill('SIGKILL');
      await within(first.exited, 15_000, 'the killed server to exit');
      assert.ok(existsSync(`${path}-serve.lock`), 'the lock file is still there');
      const third = await spawn();
      assert.equal((await fetch(`${third.url}/healthz`)).status, 200);
      assert.equal(await third.stop('SIGTERM'), 0);
    });
  } else {
    test('PostgreSQL: a second instance on the same data folder and database serves too', async () => {
      const first = await spawn();
      const second = await spawn();
      for (const s of [first, second]) assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
      assert.equal(await second.stop('SIGTERM'), 0);
      assert.equal(await first.stop('SIGTERM'), 0);
    });
  }
});
