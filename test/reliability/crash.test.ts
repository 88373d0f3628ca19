import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { freshDatabaseUrl, testDatabases } from '../helpers/databases.js';
import { apiClient, errorCode } from '../helpers/http.js';
import { writeLoad } from '../helpers/load.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { eventually } from '../helpers/receiver.js';
import { otherConnection, tempDir } from '../helpers/server.js';
import { within } from '../helpers/ticks.js';

for (const db of testDatabases()) {
  describe(`SIGKILL in the middle of a write load [${db}]`, () => {
    const servers: ServerProcess[] = [];
    const dirs: string[] = [];
    after(async () => {
      for (const s of servers) await s.stop('SIGKILL');
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    test(`every acknowledged candidate and assessment exists after the restart, and the store opens cleanly${db === 'sqlite' ? ' (SQLite integrity_check ok)' : ''}`, async () => {
      const dataDir = tempDir();
      dirs.push(dataDir);
      const env = { DATA_DIR: dataDir, DATABASE_URL: await freshDatabaseUrl(db, dataDir), DEMO_TENANT: 'false', LOG_LEVEL: 'warn' };
      const created = await runCli(['tenant', 'create', '--name', 'crash', '--portal-domain', 'https://p.test', '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      const creds = JSON.parse(created.stdout);

      const first = await spawnServer(env);
      servers.push(first);
      const load = writeLoad(first.url, creds, 8);
      await eventually(async () => (load.result.acknowledgedAssessments.length >= 150 ? true : undefined), 60_000, '150 acknowledged assessments');
      first.child.kill('SIGKILL');
      await within(first.exited, 15_000, 'the killed server to exit');
      const result = await load.stop();
      assert.ok(result.acknowledgedCandidates.length >= 150);

      if (db === 'sqlite') {
        const raw = otherConnection({ databaseUrl: env.DATABASE_URL });
        assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
        raw.close();
      }

      const second = await spawnServer(env);
      servers.push(second);
      const api = apiClient(second.url, creds);
      for (const externalId of result.acknowledgedCandidates) {
        const again = await api.createCandidate({ ExternalId: externalId, Email: 'x@example.com', FirstName: 'Xx', LastName: 'Yy', Preposition: '' });
        assert.equal(again.status, 400, `acknowledged candidate ${externalId} is missing`);
        assert.equal(errorCode(again), 'ExternalIdAlreadyExists');
      }
      for (const id of result.acknowledgedAssessments) {
        const res = await api.get(`/api/anonymous/assessment/${id}`);
        assert.equal(res.status, 200, `acknowledged assessment ${id} is missing`);
      }
      assert.equal(await second.stop('SIGTERM'), 0);
    });
  });
}
