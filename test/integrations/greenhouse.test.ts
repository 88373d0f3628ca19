import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { runCli } from '../helpers/cli.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, basic, request } from '../helpers/http.js';
import { activateTestNorms } from '../helpers/norms.js';
import { eventually } from '../helpers/receiver.js';
import { dispatcherQuiet } from '../helpers/ticks.js';
import { docsSendTest } from '../helpers/greenhouse.js';
import { createGreenhouseKey } from '../../src/tenancy/greenhouse-keys-store.js';
import { newGreenhouseKey } from '../../src/security/tokens.js';

suiteOnEachDatabase(
  'Greenhouse Assessment Partner API',
  // A one-minute poll: retries come only from the wakes the tests drive.
  {
    smtp: true,
    receiver: true,
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_TIMEOUT_MS: '400' },
  },
  ({ db, server, creds, receiver, sink, cliEnv }) => {
    let key: string;
    const base = () => `${server.url}/integrations/greenhouse`;
    const gh = (path: string, init: { method?: string; body?: unknown; key?: string; from?: string } = {}) =>
      request(base() + path, { ...init, headers: { authorization: basic(init.key ?? key, '') } });

    before(async () => {
      await activateTestNorms(server.running.deps.store);
      const out = await runCli(['key', 'greenhouse', 'create', '--key', creds.apiKeyPrefix, '--json'], cliEnv);
      assert.equal(out.code, 0, out.stderr);
      key = JSON.parse(out.stdout).greenhouseKey;
    });

    test('key check: the CLI-issued key as Basic username with an empty password gets 200; a wrong or missing key 401 in the errors shape', async () => {
      assert.equal((await gh('/list_tests')).status, 200);
      const wrong = await gh('/list_tests', { key: 'gh_not-a-key' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.headers.get('www-authenticate')?.startsWith('Basic'), true);
      assert.deepEqual(Object.keys(wrong.body), ['errors']);
      assert.equal(typeof wrong.body.errors[0], 'string');
      const none = await request(base() + '/list_tests');
      assert.equal(none.status, 401);
      // The caller API's key is not a Greenhouse key.
      assert.equal((await gh('/list_tests', { key: creds.apiKey })).status, 401);
    });

    test("a key revoked with bin/assay key greenhouse revoke gets 401 on its next request; the portal's other key still works", async () => {
      const issue = async () => JSON.parse((await runCli(['key', 'greenhouse', 'create', '--key', creds.apiKeyPrefix, '--json'], cliEnv)).stdout);
      const [doomed, kept] = [await issue(), await issue()];
      assert.equal((await gh('/list_tests', { key: doomed.greenhouseKey })).status, 200, 'served before the revocation');
      const out = await runCli(['key', 'greenhouse', 'revoke', doomed.greenhouseKeyId, '--json'], cliEnv);
      assert.equal(out.code, 0, out.stderr);
      assert.equal((await gh('/list_tests', { key: doomed.greenhouseKey })).status, 401);
      assert.equal((await gh('/list_tests', { key: kept.greenhouseKey })).status, 200);
    });

    test('failed keys lock their client out with 429 as the caller API does, while a valid key from that client still works', async () => {
      const from = '127.0.0.23';
      let last;
      for (let i = 0; i < 11; i++) last = await gh('/list_tests', { key: `gh_wrong${i}`, from });
      assert.equal(last!.status, 429);
      assert.ok(Number(last!.headers.get('retry-after')) >= 1);
      assert.equal((await gh('/list_tests', { from })).status, 200);
    });

    test('list_tests: every instrument, ids and names as strings', async () => {
      const res = await gh('/list_tests');
      assert.deepEqual(
        res.body.map((t: any) => t.partner_test_id),
        [...server.running.deps.instruments.keys()].map(String),
      );
      for (const t of res.body) {
        assert.deepEqual(Object.keys(t).sort(), ['partner_test_id', 'partner_test_name']);
        assert.equal(typeof t.partner_test_name, 'string');
      }
      assert.match(res.body[0].partner_test_name, /TMA170/);
    });

    test('send_test: malformed input gets 400 with a message naming the field', async () => {
      const bad = docsSendTest(receiver.url('/x'));
      const noEmail = await gh('/send_test', { method: 'POST', body: { ...bad, candidate: { ...bad.candidate, email: 'nope' } } });
      assert.equal(noEmail.status, 400);
      assert.match(noEmail.body.errors[0], /email/);
      const unknownTest = await gh('/send_test', { method: 'POST', body: { ...bad, partner_test_id: '77' } });
      assert.equal(unknownTest.status, 400);
      assert.match(unknownTest.body.errors[0], /partner_test_id/);
      const noUrl = await gh('/send_test', { method: 'POST', body: { ...bad, url: 'not a url' } });
      assert.equal(noUrl.status, 400);
      assert.match(noUrl.body.errors[0], /^url /);
    });

    test('send_test without e-mail configured answers 400 naming SMTP_URL and creates nothing', async () => {
      const config = server.running.deps.config as { mail: unknown };
      const mail = config.mail;
      config.mail = undefined;
      const store = server.running.deps.store;
      const count = async () =>
        Number(
          (
            await store.db
              .selectFrom('assessments')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('tenant_id', '=', creds.tenantId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const atStart = await count();
      try {
        const res = await gh('/send_test', { method: 'POST', body: docsSendTest(receiver.url('/x'), { person: '555' }) });
        assert.equal(res.status, 400);
        assert.match(res.body.errors[0], /SMTP_URL/);
      } finally {
        config.mail = mail;
      }
      assert.equal(await count(), atStart, 'no assessment created');
      // Positive control: with e-mail back, the same order creates its assessment.
      assert.equal((await gh('/send_test', { method: 'POST', body: docsSendTest(receiver.url('/x'), { person: '555' }) })).status, 200);
      assert.equal(await count(), atStart + 1);
    });

    test('send_test reuses the candidate for the same Greenhouse person (another application), not for another person', async () => {
      const a = await gh('/send_test', { method: 'POST', body: docsSendTest(receiver.url('/x'), { person: '9001' }) });
      const b = await gh('/send_test', { method: 'POST', body: { ...docsSendTest(receiver.url('/x'), { person: '9001' }), partner_test_id: '1' } });
      const c = await gh('/send_test', { method: 'POST', body: docsSendTest(receiver.url('/x'), { person: '9002' }) });
      const api = apiClient(server.url, creds);
      const ext = async (r: any) => (await api.get(`/api/anonymous/assessment/${r.body.partner_interview_id}`)).body.Data.ExternalId;
      assert.equal(await ext(a), await ext(b));
      assert.notEqual(await ext(a), await ext(c));
    });

    test('the whole order: invitation, the candidate takes the test by its link, PATCH retried after a 500 and after no answer, then test_status complete with a report link', async () => {
      const path = '/integrations/testing_partners/take_home_tests/12345';
      let calls = 0;
      receiver.behaviour = (res, req) => {
        if (req.url !== path) return void res.writeHead(204).end();
        calls += 1;
        if (calls === 1) res.writeHead(500).end();
        else if (calls === 2)
          return; // no answer: the attempt times out
        else res.writeHead(200).end();
      };
      // The earlier tests' invitations (the same address) are all out before counting from here.
      await dispatcherQuiet(server.running.deps.mail);
      const before = sink.to('hpotter@hogwarts.edu').length;
      const ordered = await gh('/send_test', { method: 'POST', body: docsSendTest(receiver.url(path)) });
      assert.equal(ordered.status, 200);
      assert.deepEqual(Object.keys(ordered.body), ['partner_interview_id']);
      const id: string = ordered.body.partner_interview_id;
      assert.equal(typeof id, 'string');

      // One invitation reaches the SMTP server, with the link to this assessment.
      await eventually(async () => (sink.to('hpotter@hogwarts.edu').length > before ? true : undefined), 15_000, 'the invitation');
      await dispatcherQuiet(server.running.deps.mail);
      const invitations = sink.to('hpotter@hogwarts.edu').slice(before);
      assert.equal(invitations.length, 1);
      const text = invitations[0]!.parsed.text ?? '';
      const href = text.match(/https?:\/\/\S+\/anonymous\/analyse\/[A-Za-z0-9_-]+\/resume\/[A-Za-z0-9_-]+/)?.[0];
      assert.ok(href, "the e-mail carries the candidate's personal link to the assessment");
      const link = new URL(href);
      assert.equal(link.origin, creds.portalDomain);
      assert.equal(link.pathname.split('/')[3], id);

      const pending = await gh(`/test_status?partner_interview_id=${id}`);
      assert.equal(pending.status, 200);
      assert.equal(pending.body.partner_status, 'sent');
      assert.equal(pending.body.partner_profile_url, null);

      // The candidate follows the e-mailed link (its path, on this server).
      const candidate = new FormClient(server.url);
      assert.equal((await candidate.get(link.pathname)).status, 303);
      await completeViaForms(candidate, id);

      const hits = () => receiver.received.filter((r) => r.url === path);
      const webhooks = server.running.deps.webhooks;
      await eventually(
        async () => {
          webhooks.wake(); // the poll's part: retries fall due between looks
          return hits().length >= 3 ? true : undefined;
        },
        20_000,
        'three PATCHes',
      );
      for (const h of hits()) {
        assert.equal(h.method, 'PATCH');
        assert.equal(h.body, '');
        assert.equal(h.headers['content-type'], undefined);
        assert.equal(h.headers.authorization, `Basic ${Buffer.from(`${key}:`).toString('base64')}`);
      }
      // Delivered by the third: after two more looks with nothing in flight, still three.
      await dispatcherQuiet(webhooks);
      assert.equal(hits().length, 3);

      const api = apiClient(server.url, creds);
      const log = await eventually(async () => {
        const r = await api.get(`/api/anonymous/assessment/${id}/webhooks`);
        const attempts = r.body.Data.Attempts ?? r.body.Data;
        return attempts.length === 3 && attempts[2].Status === 'Delivered' ? attempts : undefined;
      });
      assert.deepEqual(
        log.map((a: any) => [a.Status, a.ResponseStatus]),
        [
          ['Failed', 500],
          ['Failed', null],
          ['Delivered', 200],
        ],
      );
      assert.match(log[1].Error, /timed out/);

      const done = await gh(`/test_status?partner_interview_id=${id}`);
      assert.equal(done.status, 200);
      assert.equal(done.body.partner_status, 'complete');
      assert.equal(done.body.partner_score, null);
      const meta = done.body.metadata;
      for (const v of Object.values(meta)) assert.ok(v === null || ['string', 'number', 'boolean'].includes(typeof v));
      // Each scale's sten is the one the caller API's results give.
      const results = (await api.get(`/api/candidateanalysisresult/${id}/en-GB`)).body;
      assert.equal(results.NormScores.length, 26);
      results.NormScoreScales.forEach((s: any, i: number) => assert.equal(meta[`${s.Description} (sten)`], results.NormScores[i].Value, s.Description));

      const profile = new URL(done.body.partner_profile_url);
      assert.equal(profile.origin, creds.portalDomain);
      const expires = Number(profile.searchParams.get('expires')) * 1000;
      assert.ok(expires > Date.now() + 179 * 86_400_000 && expires < Date.now() + 182 * 86_400_000, 'valid for 180 days');
      const report = await request(server.url + profile.pathname + profile.search);
      assert.equal(report.status, 200);
      assert.match(report.text, /Potter/);
    });

    test('test_status: an unknown id is 404, and another tenant with its own Greenhouse key sees nothing of this one', async () => {
      const mine = await gh('/send_test', { method: 'POST', body: docsSendTest(receiver.url('/x'), { person: '31337' }) });
      const id = mine.body.partner_interview_id;
      assert.equal((await gh(`/test_status?partner_interview_id=${id}`)).status, 200);
      const unknown = await gh('/test_status?partner_interview_id=AAAAAAAAAAAAAAAAAAAAAAAA');
      assert.equal(unknown.status, 404);
      assert.equal(typeof unknown.body.errors[0], 'string');

      const other = await server.tenant();
      const k = newGreenhouseKey();
      await createGreenhouseKey(server.running.deps.store, { tenantId: other.tenantId, apiKeyId: other.apiKeyId, prefix: k.prefix, hash: k.hash });
      assert.equal((await gh('/list_tests', { key: k.key })).status, 200);
      assert.equal((await gh(`/test_status?partner_interview_id=${id}`, { key: k.key })).status, 404);
      // An assessment the caller API made for this tenant is not a Greenhouse test either.
      const api = apiClient(server.url, creds);
      await api.createCandidate({ ExternalId: `tma-${db}-1`, Email: 'a@b.test', FirstName: 'An', LastName: 'Other', Preposition: '' });
      const tma = await api.createAssessment({ ExternalId: `tma-${db}-1`, AssessmentType: 0 });
      assert.equal((await gh(`/test_status?partner_interview_id=${tma.body.Data.AnalysisId}`)).status, 404);
    });

    test('response_error is taken with {"status": 200}', async () => {
      const res = await gh('/response_error', {
        method: 'POST',
        body: {
          api_call: 'test_status',
          errors: ["partner_status is 'complete' but partner_profile url is missing"],
          partner_test_id: '12345',
          partner_test_name: 'Personality Test',
          partner_interview_id: '299506',
          candidate_email: 'hpotter@hogwarts.edu',
        },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 200 });
    });
  },
);
