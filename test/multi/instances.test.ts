import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import pg from 'pg';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode, request, uniqueId, type Credentials } from '../helpers/http.js';
import { ownPostgres } from '../helpers/postgres.js';
import type { ServerProcess } from '../helpers/process.js';
import { eventually } from '../helpers/receiver.js';

/**
 * Waits until no webhook attempt in the database is pending, sending or scheduled, and returns
 * how many were delivered; fails after `ms`.
 */
async function outboxSettled(url: string, ms: number): Promise<{ delivered: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + ms;
    for (;;) {
      const { rows } = await client.query<{ open: string; delivered: string }>(
        "select count(*) filter (where status in ('pending', 'sending', 'scheduled')) as open, count(*) filter (where status = 'delivered') as delivered from webhook_attempts",
      );
      const { open, delivered } = rows[0]!;
      if (Number(open) === 0) return { delivered: Number(delivered) };
      if (Date.now() > deadline) throw new Error(`${open} webhook attempt(s) still open after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.end();
  }
}

// Several instances only exist on PostgreSQL; a run without it shows this skipped. The instances
// share a PostgreSQL of their own, which the last test stops and starts again.
suiteOnEachDatabase(
  'three instances on one PostgreSQL',
  { on: 'postgres', process: true, start: false, tenant: false, receiver: true },
  ({ spawn, freshDir, receiver }) => {
    let pg: Awaited<ReturnType<typeof ownPostgres>>;
    const instances: ServerProcess[] = [];
    const dirs: string[] = [];
    let env: Record<string, string>;
    let creds: Credentials & { tenantId: string };
    const urls = () => instances.map((i) => i.url);

    before(async () => {
      pg = await ownPostgres();
      env = {
        DATABASE_URL: pg.url,
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        DEMO_TENANT: 'false',
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '60000',
        SHUTDOWN_DRAIN_MS: '0',
      };
      // All three start, and so migrate, at the same moment on an empty database.
      await Promise.all(
        [0, 1, 2].map(() => {
          const dataDir = freshDir();
          dirs.push(dataDir);
          // Each counted once it listens, so the teardown stops it before PostgreSQL even if another failed to start.
          return spawn({ ...env, DATA_DIR: dataDir }).then((s) => (instances.push(s), s));
        }),
      );
      const out = await runCli(['tenant', 'create', '--name', 'multi', '--portal-domain', 'https://p.test', '--json'], { ...env, DATA_DIR: dirs[0]! });
      assert.equal(out.code, 0, out.stderr);
      creds = JSON.parse(out.stdout);
    });

    after(async () => {
      // The instances first: the harness would kill them only after PostgreSQL is gone.
      for (const i of instances) await i.stop('SIGKILL');
      await pg?.destroy();
    });

    test('racing creates of one ExternalId across the instances give exactly one 201', async () => {
      for (let round = 0; round < 3; round++) {
        const id = uniqueId('multi-race');
        const replies = await Promise.all(
          Array.from({ length: 30 }, (_, i) => apiClient(urls()[i % 3]!, creds).createCandidate(candidate({ ExternalId: id }))),
        );
        assert.equal(replies.filter((r) => r.status === 201).length, 1);
        for (const r of replies.filter((x) => x.status !== 201)) assert.equal(errorCode(r), 'ExternalIdAlreadyExists');
      }
    });

    test('the CLI works against the running instances, and a revoked key stops on every one at once', async () => {
      const k = await runCli(['key', 'create', '--tenant', creds.tenantId, '--portal-domain', 'https://two.test', '--json'], { ...env, DATA_DIR: dirs[0]! });
      const key = JSON.parse(k.stdout);
      for (const url of urls()) assert.equal((await apiClient(url, { ...creds, apiKey: key.apiKey }).createCandidate(candidate())).status, 201);
      assert.equal((await runCli(['key', 'revoke', key.apiKeyId], { ...env, DATA_DIR: dirs[0]! })).code, 0);
      for (const url of urls()) {
        const res = await apiClient(url, { ...creds, apiKey: key.apiKey }).createCandidate(candidate());
        assert.equal(res.status, 401, url);
      }
    });

    test('200 completions through alternating instances: exactly one webhook POST each', async () => {
      const ids: string[] = [];
      const flows = Array.from({ length: 200 }, (_, n) => n);
      const worker = async () => {
        for (let n = flows.shift(); n !== undefined; n = flows.shift()) {
          const api = apiClient(urls()[n % 3]!, creds);
          const body = candidate();
          assert.equal((await api.createCandidate(body)).status, 201);
          const a = await api.createAssessment({
            ExternalId: body.ExternalId,
            AssessmentType: 0,
            WebhookUrl: receiver.url('/multi'),
            WebhookUsername: 'u',
            WebhookPassword: 'p',
          });
          assert.equal(a.status, 201, a.text);
          ids.push(a.body.Data.AnalysisId);
          // Every request of this candidate goes to the next instance: the portal keeps no state in a process.
          await completeViaForms(new FormClient([...urls().slice(n % 3), ...urls().slice(0, n % 3)]), a.body.Data.AnalysisId);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      const hits = await receiver.waitFor(200, 60_000);
      // Every attempt settled in the shared outbox: none waits, is claimed, or is scheduled again on
      // any instance, so any second POST has already reached the receiver, which records before it answers.
      const settled = await outboxSettled(pg.url, 30_000);
      assert.equal(settled.delivered, 200, 'the outbox read sees each delivered attempt');
      const counts = new Map<string, number>();
      for (const h of receiver.received.filter((r) => r.url === '/multi')) {
        const id = JSON.parse(h.body).Analysis_Id as string;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      assert.equal(hits.length, 200);
      assert.deepEqual([...counts.keys()].sort(), ids.sort());
      assert.ok(
        [...counts.values()].every((c) => c === 1),
        'one POST per completion',
      );
    });

    test('PostgreSQL stopping gives 503s and unready; its return brings recovery without restarts', async () => {
      await pg.stop();
      try {
        for (const url of urls()) {
          const res = await apiClient(url, creds).createCandidate(candidate());
          assert.equal(res.status, 503, `${url}: ${res.text}`);
          assert.equal(errorCode(res), 'ServiceUnavailable');
          const ready = await request(`${url}/readyz`);
          assert.equal(ready.status, 503);
          assert.equal(errorCode(ready), 'ServiceUnavailable');
          const portal = await request(`${url}/anonymous/analyse/start/AAAAAAAAAAAAAAAAAAAAAAAA`);
          assert.equal(portal.status, 503);
          assert.match(portal.text, /Something went wrong/);
        }
      } finally {
        await pg.start();
      }
      for (const url of urls()) {
        await eventually(async () => ((await request(`${url}/readyz`)).status === 200 ? true : undefined), 30_000, `${url} ready again`);
        assert.equal((await apiClient(url, creds).createCandidate(candidate())).status, 201);
      }
      for (const i of instances) assert.equal(i.child.exitCode, null, 'no instance exited');
    });
  },
);
