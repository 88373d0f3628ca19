import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { freshDatabaseUrl, testDatabases } from '../helpers/databases.js';
import { newAssessment } from '../helpers/fixtures.js';
import { request } from '../helpers/http.js';
import { writeLoad } from '../helpers/load.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, tempDir } from '../helpers/server.js';

for (const db of testDatabases()) {
  describe(`graceful shutdown on SIGTERM under load [${db}]`, () => {
    const servers: ServerProcess[] = [];
    const dirs: string[] = [];
    let receiver: Receiver | undefined;
    after(async () => {
      for (const s of servers) await s.stop('SIGKILL');
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      await receiver?.close();
    });

    test('unready, then a drain answering with Connection: close, no request cut off, webhook recorded, exit 0', async () => {
      receiver = await Receiver.start();
      // The receiver answers slowly: the webhook attempt is still in flight when SIGTERM arrives.
      receiver.behaviour = (res) => setTimeout(() => res.writeHead(200).end('ok'), 1_200);
      const dataDir = tempDir();
      dirs.push(dataDir);
      const env = {
        DATA_DIR: dataDir,
        DATABASE_URL: await freshDatabaseUrl(db, dataDir),
        DEMO_TENANT: 'false',
        LOG_LEVEL: 'warn',
        SHUTDOWN_DRAIN_MS: '1500',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      };
      const creds = JSON.parse((await runCli(['tenant', 'create', '--name', 'drain', '--portal-domain', 'https://p.test', '--json'], env)).stdout);
      const server = await spawnServer(env);
      servers.push(server);

      const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/slow') });
      const load = writeLoad(server.url, creds, 6, { leaveOnClose: true });
      while (load.result.acknowledgedCandidates.length < 30) await new Promise((r) => setTimeout(r, 10));
      await completeViaForms(new FormClient(server.url), a.id);
      await receiver.waitFor(1);

      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const ready = await request(`${server.url}/readyz`);
      assert.equal(ready.status, 503, 'unready during the drain');
      assert.equal(ready.body.error.code, 'ServiceUnavailable');
      assert.equal(ready.headers.get('connection'), 'close');
      const closedDuringDrain = load.result.connectionClose;

      const code = await server.exited;
      const result = await load.stop();
      assert.equal(code, 0, server.output());
      assert.deepEqual(result.cutOff, [], 'no request was cut off mid-flight');
      assert.ok(closedDuringDrain > 0, 'requests on open connections were answered during the drain, asking clients to reconnect');
      assert.deepEqual([...result.statuses.keys()].sort(), [201]);

      const reopened = await startServer(db, {}, { reuse: { dataDir, databaseUrl: env.DATABASE_URL } });
      try {
        const row = await reopened.running.deps.store.db.selectFrom('webhook_attempts').selectAll().where('analysis_id', '=', a.id).executeTakeFirstOrThrow();
        assert.equal(row.status, 'delivered', 'the in-flight attempt finished and was recorded');
        assert.equal(row.response_status, 200);
      } finally {
        await reopened.stop(true);
      }
    });
  });
}
