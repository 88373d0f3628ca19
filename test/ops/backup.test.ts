import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { Database } from '../../src/db/sqlite-driver.js';
import { runCli } from '../helpers/cli.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, candidate, type Credentials } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { tempDir } from '../helpers/server.js';

const WEBHOOK_PASSWORD = 'pw-carried-by-the-key';

/** Creates candidates from `workers` loops until stopped (or a minute passes); records what was acknowledged, and when. */
function writeLoad(url: string, creds: Credentials, workers = 6) {
  const acked: Array<{ externalId: string; at: number }> = [];
  const failures: string[] = [];
  let stopped = false;
  const deadline = Date.now() + 60_000;
  const api = apiClient(url, creds);
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped && Date.now() < deadline) {
      const body = candidate();
      const r = await api.createCandidate(body);
      if (r.status === 201) acked.push({ externalId: String(body.ExternalId), at: Date.now() });
      else failures.push(`${r.status} ${r.text}`);
    }
  });
  return {
    acked,
    failures,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const sqliteEnv = (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'assay.db')}` });

suiteOnEachDatabase(
  'backup and restore (SQLite)',
  { on: 'sqlite', env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' }, receiver: true },
  ({ server, receiver, creds: tenant, another }) => {
    let hooked: { id: string; externalId: string };
    let backupFile: string;
    let ackedBefore: string[];
    let ackedDuring: number;
    const work = tempDir('assay-backup-');

    before(async () => {
      hooked = await newAssessment(server.url, tenant, {
        WebhookUrl: receiver.url('/after-restore'),
        WebhookUsername: 'ats',
        WebhookPassword: WEBHOOK_PASSWORD,
      });
    });

    test('bin/assay backup, run while candidates are being created, holds every one acknowledged before it started', async () => {
      const load = writeLoad(server.url, tenant);
      try {
        await eventually(async () => (load.acked.length >= 100 ? true : undefined), 30_000, '100 acknowledged writes');
        const started = Date.now();
        ackedBefore = load.acked.map((a) => a.externalId);
        backupFile = join(work, 'assay-backup.db');
        const r = await runCli(['backup', backupFile, '--json'], { ...sqliteEnv(server.dataDir) });
        const ended = Date.now();
        assert.equal(r.code, 0, r.stderr);
        ackedDuring = load.acked.filter((a) => a.at > started && a.at < ended).length;
        const summary = JSON.parse(r.stdout);
        assert.equal(summary.file, backupFile);
        assert.ok(summary.pages > 0);
        assert.equal(summary.serverKey, join(server.dataDir, 'secret.key'));
      } finally {
        await load.stop();
      }
      assert.deepEqual(load.failures, [], 'the server refused no write while the backup ran');
      assert.ok(ackedDuring > 0, 'writes were acknowledged while the backup command ran');
      assert.equal(statSync(backupFile).mode & 0o777, 0o600);

      const copy = new Database(backupFile, { readonly: true });
      try {
        assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete', 'one self-contained file');
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        const present = new Set(copy.prepare('SELECT external_id FROM candidates').pluck().all() as string[]);
        const missing = ackedBefore.filter((id) => !present.has(id));
        assert.deepEqual(missing, [], 'acknowledged before the backup, missing from it');
      } finally {
        copy.close();
      }
    });

    test('bin/assay backup never overwrites a file, and on PostgreSQL points to pg_dump', async () => {
      assert.ok(backupFile, 'the backup above ran');
      const again = await runCli(['backup', backupFile], sqliteEnv(server.dataDir));
      assert.equal(again.code, 1);
      assert.match(again.stderr, /exists; a backup never overwrites/);
      const pg = await runCli(['backup', join(work, 'pg.db')], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: work });
      assert.equal(pg.code, 1);
      assert.match(pg.stderr, /pg_dump/);
    });

    test('restore refuses a data directory with data, a key that does not fit, and a missing key', async () => {
      assert.ok(backupFile, 'the backup above ran');
      const occupied = await runCli(['restore', backupFile, '--key', join(server.dataDir, 'secret.key')], sqliteEnv(server.dataDir));
      assert.equal(occupied.code, 1);
      assert.match(occupied.stderr, /already holds data/);

      const wrongKey = join(work, 'other.key');
      writeFileSync(wrongKey, randomBytes(32).toString('base64'));
      const wrong = await runCli(['restore', backupFile, '--key', wrongKey], sqliteEnv(tempDir('assay-restore-')));
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /does not open the secrets/);

      const keyless = await runCli(['restore', backupFile], sqliteEnv(tempDir('assay-restore-')));
      assert.equal(keyless.code, 1);
      assert.match(keyless.stderr, /--key FILE/);
    });

    test('restored into an empty data directory with its key, it serves: the same login, every acknowledged row, the sealed webhook password', async () => {
      assert.ok(backupFile, 'the backup above ran');
      const dir = join(tempDir('assay-restore-'), 'data');
      const r = await runCli(['restore', backupFile, '--key', join(server.dataDir, 'secret.key'), '--json'], sqliteEnv(dir));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).key, 'restored');
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      for (const f of ['assay.db', 'secret.key']) assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600, f);

      const restored = await another(
        { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' },
        { reuse: { dataDir: dir, databaseUrl: `sqlite:${join(dir, 'assay.db')}` } },
      );
      try {
        const api = apiClient(restored.url, tenant);
        for (const id of [ackedBefore[0]!, ackedBefore.at(-1)!, hooked.externalId]) {
          const got = await api.get(`/api/anonymous/candidate/${encodeURIComponent(id)}`);
          assert.equal(got.status, 200, `${id}: ${got.text}`);
        }
        const count = await restored.running.deps.store.db
          .selectFrom('candidates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        assert.ok(Number(count.n) >= ackedBefore.length + 1);

        await completeViaForms(new FormClient(restored.url), hooked.id);
        const [hook] = await receiver.waitForPath('/after-restore');
        assert.equal(hook!.headers.authorization, `Basic ${Buffer.from(`ats:${WEBHOOK_PASSWORD}`).toString('base64')}`);
      } finally {
        await restored.stop();
      }
    });
  },
);
