import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { Webhook } from 'standardwebhooks';
import { runCli } from '../helpers/cli.js';
import { scanFiles } from '../helpers/files.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, type Credentials } from '../helpers/http.js';
import { eventually, type Received } from '../helpers/receiver.js';

type Tenant = Credentials & { apiKeyId: string };

const headers = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

suiteOnEachDatabase(
  'operating webhooks: signatures, the log on the command line, redelivery in bulk, a test delivery',
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' }, tenant: false, receiver: true },
  ({ db, server, receiver }) => {
    let env: Record<string, string>;
    before(async () => {
      env = { DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
    });

    const cli = async (...args: string[]) => {
      const r = await runCli(args, env);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };

    async function completedWithHook(tenant: Credentials, path: string) {
      const a = await newAssessment(server.url, tenant, { WebhookUrl: receiver.url(path) });
      await completeViaForms(new FormClient(server.url), a.id);
      const [hook] = await receiver.waitForPath(path);
      return { a, hook: hook! };
    }

    test("unsigned by default: the wire is exactly the spec's", async () => {
      const { hook } = await completedWithHook(await server.tenant(), '/plain');
      assert.deepEqual(
        Object.keys(hook.headers).filter((h) => h.startsWith('webhook-')),
        [],
      );
    });

    // The byte scan reads SQLite's files; on PostgreSQL the name says what is left: the stored column.
    test(`signed when the portal turns it on: the standardwebhooks library verifies, tampering fails, the body is unchanged; the secret is stored sealed${db === 'sqlite' ? ', in no byte of the SQLite files' : ''}`, async () => {
      const tenant = (await server.tenant()) as Tenant;
      const set = await cli('portal', 'set', '--key', tenant.apiKeyId, '--signed-webhooks', 'on', '--json');
      assert.match(set.webhookSecret, /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.equal(set.signedWebhooks, true);
      const again = await cli('portal', 'set', '--key', tenant.apiKeyId, '--signed-webhooks', 'on', '--json');
      assert.equal(again.webhookSecret, undefined, 'the secret is shown once');

      const { a, hook } = await completedWithHook(tenant, '/signed');
      assert.deepEqual(JSON.parse(hook.body), { Analysis_Id: a.id, External_Id: a.externalId });
      assert.equal(hook.headers['webhook-id'], `msg_${a.id}`);
      assert.ok(Math.abs(Number(hook.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
      assert.match(String(hook.headers['webhook-signature']), /^v1,[A-Za-z0-9+/=]+$/);
      assert.ok(new Webhook(set.webhookSecret).verify(hook.body, headers(hook)));
      assert.throws(() => new Webhook(set.webhookSecret).verify(hook.body.replace(a.id, `${a.id}x`), headers(hook)), /signature/i);
      assert.throws(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(hook.body, headers(hook)), /signature/i);

      // Stored sealed: the secret is nowhere in the database in the clear.
      const row = await server.running.deps.store.db
        .selectFrom('portal_settings')
        .select('webhook_secret_enc')
        .where('api_key_id', '=', tenant.apiKeyId)
        .executeTakeFirstOrThrow();
      assert.ok(!row.webhook_secret_enc!.includes(set.webhookSecret.slice(6, 20)));
      if (db === 'sqlite') {
        // Positive control: the same scan finds the WebhookUrl stored in the clear, so it read the database's bytes.
        const files = scanFiles(server.dataDir, [Buffer.from(set.webhookSecret), Buffer.from(receiver.url('/signed'))]);
        assert.ok(files.reduce((n, { counts }) => n + counts[1]!, 0) > 0, `the WebhookUrl is found in ${files.map((f) => f.file).join(', ')}`);
        for (const { file, counts } of files) assert.equal(counts[0], 0, file);
      }

      // Rotation with an overlap: both secrets verify; after a rotation without one, only the new.
      const rotated = await cli('key', 'webhook-secret', 'rotate', tenant.apiKeyId, '--json');
      assert.notEqual(rotated.webhookSecret, set.webhookSecret);
      const overlap = (await completedWithHook(tenant, '/rotated')).hook;
      assert.equal(String(overlap.headers['webhook-signature']).split(' ').length, 2);
      for (const secret of [set.webhookSecret, rotated.webhookSecret]) assert.ok(new Webhook(secret).verify(overlap.body, headers(overlap)));
      const final = await cli('key', 'webhook-secret', 'rotate', tenant.apiKeyId, '--overlap-hours', '0', '--json');
      const later = (await completedWithHook(tenant, '/final')).hook;
      assert.ok(new Webhook(final.webhookSecret).verify(later.body, headers(later)));
      assert.throws(() => new Webhook(rotated.webhookSecret).verify(later.body, headers(later)), /signature/i);

      await cli('portal', 'set', '--key', tenant.apiKeyId, '--signed-webhooks', 'off', '--json');
      const off = (await completedWithHook(tenant, '/off')).hook;
      assert.equal(off.headers['webhook-signature'], undefined);
    });

    test('webhook list shows failed deliveries; redeliver --all --status failed sends each once more', async () => {
      const tenant = await server.tenant();
      const failing = new Set<string>(['/down-1', '/down-2']);
      const previous = receiver.behaviour;
      receiver.behaviour = (res, req) => (failing.has(req.url) ? res.writeHead(500).end() : previous(res, req));
      const first = await completedWithHook(tenant, '/down-1');
      const second = await completedWithHook(tenant, '/down-2');
      const api = apiClient(server.url, tenant);
      for (const { a } of [first, second]) {
        await eventually(async () => ((await api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Webhook.Status === 'Failed' ? true : undefined));
      }
      const tenantId = (tenant as unknown as { tenantId: string }).tenantId;
      const listed = await cli('webhook', 'list', '--tenant', tenantId, '--status', 'failed', '--json');
      assert.deepEqual(new Set(listed.map((r: any) => r.analysisId)), new Set([first.a.id, second.a.id]));
      assert.ok(listed.every((r: any) => r.responseStatus === 500 && r.kind === 'automatic'));

      failing.clear();
      const redelivered = await cli('webhook', 'redeliver', '--all', '--status', 'failed', '--json');
      assert.deepEqual(
        redelivered.filter((r: any) => [first.a.id, second.a.id].includes(r.analysisId)).map((r: any) => r.outcome),
        ['queued', 'queued'],
      );
      for (const { a } of [first, second]) {
        const log = await eventually(async () => {
          const l = (await api.get(`/api/anonymous/assessment/${a.id}/webhooks`)).body.Data;
          return l.at(-1)?.Status === 'Delivered' ? l : undefined;
        });
        assert.deepEqual(
          log.map((x: any) => [x.Kind, x.Status, x.ResponseStatus]),
          [
            ['Automatic', 'Failed', 500],
            ['Manual', 'Delivered', 204],
          ],
        );
      }
      const none = await cli('webhook', 'redeliver', '--all', '--status', 'failed', '--json');
      assert.ok(!none.some((r: any) => [first.a.id, second.a.id].includes(r.analysisId)), 'delivered ones are not sent again');
      receiver.behaviour = previous;
    });

    test('webhook test delivers a sample through the same client, and obeys the address policy', async () => {
      const ok = await cli('webhook', 'test', '--url', receiver.url('/test-delivery'), '--username', 'ats', '--password', 'pw', '--json');
      assert.equal(ok.status, 204);
      const [hit] = await receiver.waitForPath('/test-delivery');
      assert.equal(hit!.headers.authorization, `Basic ${Buffer.from('ats:pw').toString('base64')}`);
      assert.deepEqual(JSON.parse(hit!.body), { Analysis_Id: 'test-delivery', External_Id: 'test-delivery' });

      const strict = { ...env, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' };
      for (const url of [receiver.url('/nope'), `http://localhost:${receiver.port}/nope`, `http://[::7f00:1]:${receiver.port}/nope`]) {
        const refused = await runCli(['webhook', 'test', '--url', url], strict);
        assert.equal(refused.code, 1, url);
        assert.match(refused.stderr, /public address/, url);
      }
      const unreachable = await runCli(['webhook', 'test', '--url', 'http://127.0.0.1:9/closed'], env);
      assert.equal(unreachable.code, 1);
      assert.match(unreachable.stdout, /Not delivered: connection refused/);
      assert.equal(receiver.received.filter((r) => r.url === '/nope').length, 0);
    });
  },
);
