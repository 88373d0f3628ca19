import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, errorCode } from '../helpers/http.js';
import { writeLoad } from '../helpers/load.js';
import { eventually } from '../helpers/receiver.js';
import { otherConnection } from '../helpers/server.js';
import { within } from '../helpers/ticks.js';

// Processes of their own: the first is killed mid-write, the second starts on what it left.
suiteOnEachDatabase(
  'SIGKILL in the middle of a write load',
  { process: true, tenant: { name: 'crash' } },
  ({ db, serverProcess: first, spawn, creds, cliEnv }) => {
    test(`every acknowledged candidate and assessment exists after the restart, and the store opens cleanly${db === 'sqlite' ? ' (SQLite integrity_check ok)' : ''}`, async () => {
      const load = writeLoad(first.url, creds, 8);
      await eventually(async () => (load.result.acknowledgedAssessments.length >= 150 ? true : undefined), 60_000, '150 acknowledged assessments');
      first.child.kill('SIGKILL');
      await within(first.exited, 15_000, 'the killed server to exit');
      const result = await load.stop();
      assert.ok(result.acknowledgedCandidates.length >= 150);

      if (db === 'sqlite') {
        const raw = otherConnection({ databaseUrl: cliEnv.DATABASE_URL! });
        assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
        raw.close();
      }

      const second = await spawn();
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
  },
);
