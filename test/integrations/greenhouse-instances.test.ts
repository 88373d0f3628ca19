import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, basic, request } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { tempDir, type TestServer } from '../helpers/server.js';
import { dispatcherLooked, dispatcherQuiet } from '../helpers/ticks.js';

// A one-minute poll: the dispatchers look only when the test wakes them. Instances sharing a
// database share one ENCRYPTION_KEY, or the other cannot unseal the stored Greenhouse key.
const env = {
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '60000',
  WEBHOOK_TIMEOUT_MS: '5000',
};
const PATH = '/integrations/testing_partners/take_home_tests/two-instances';

suiteOnEachDatabase('Greenhouse completion across two instances', { on: 'postgres', smtp: true, receiver: true, env }, (ctx) => {
  let key: string;
  let second: TestServer;

  before(async () => {
    const out = await runCli(['key', 'greenhouse', 'create', '--key', ctx.creds.apiKeyPrefix, '--json'], ctx.cliEnv);
    assert.equal(out.code, 0, out.stderr);
    key = JSON.parse(out.stdout).greenhouseKey;
    // The same database, a data directory of its own.
    second = await ctx.another(env, { reuse: { dataDir: tempDir(), databaseUrl: ctx.server.databaseUrl } });
  });

  test('two servers on one PostgreSQL database, both dispatchers driven: exactly one PATCH reaches Greenhouse', async () => {
    // A slow answer keeps the PATCH in flight while the other dispatcher is woken.
    ctx.receiver.behaviour = (res, req) => {
      if (req.url === PATH) setTimeout(() => res.writeHead(200).end(), 300);
      else res.writeHead(204).end();
    };
    const body = {
      partner_test_id: '0',
      candidate: {
        first_name: 'Harry',
        last_name: 'Potter',
        preferred_name: '',
        phone_number: '',
        email: 'hpotter@hogwarts.edu',
        greenhouse_profile_url: 'https://app.greenhouse.io/people/8080?application_id=1',
      },
      sent_by: 'test_sender@example.org',
      url: ctx.receiver.url(PATH),
    };
    const ordered = await request(`${ctx.server.url}/integrations/greenhouse/send_test`, { method: 'POST', body, headers: { authorization: basic(key, '') } });
    assert.equal(ordered.status, 200);
    // The order was placed on the first server; the second sees it, so they share the database.
    const seen = await request(`${second.url}/integrations/greenhouse/test_status?partner_interview_id=${ordered.body.partner_interview_id}`, {
      headers: { authorization: basic(key, '') },
    });
    assert.equal(seen.status, 200);
    await completeViaForms(new FormClient(second.url), ordered.body.partner_interview_id);

    const one = ctx.server.running.deps.webhooks;
    const two = second.running.deps.webhooks;
    const hits = () => ctx.receiver.received.filter((r) => r.url === PATH);
    await eventually(
      async () => {
        one.wake();
        two.wake();
        return hits().length >= 1 ? true : undefined;
      },
      20_000,
      'the PATCH',
    );
    // Each dispatcher gets further explicit passes after the PATCH arrived, then both are quiet.
    await Promise.all([dispatcherLooked(one), dispatcherLooked(two)]);
    await Promise.all([dispatcherQuiet(one), dispatcherQuiet(two)]);
    assert.equal(hits().length, 1);
    assert.equal(hits()[0]!.method, 'PATCH');
    // The delivery log, read through the other server, agrees: one attempt, delivered.
    const log = (await apiClient(ctx.server.url, ctx.creds).get(`/api/anonymous/assessment/${ordered.body.partner_interview_id}/webhooks`)).body.Data;
    const attempts = log.Attempts ?? log;
    assert.deepEqual(
      attempts.map((a: { Status: string }) => a.Status),
      ['Delivered'],
    );
  });
});
