import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { scanFiles } from '../helpers/files.js';
import { onlyOn } from '../helpers/databases.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import type { TestServer } from '../helpers/server.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient, startPath } from '../helpers/forms.js';
import { apiClient, authHeaders, candidate, errorCode, request, type Credentials } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { localPath } from '../helpers/report-links.js';

/** How often `needle` occurs in the files of `dir`, in UTF-8 or UTF-16. */
function occurrences(dir: string, needle: string): number {
  const forms = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  return scanFiles(dir, forms).reduce((n, { counts }) => n + counts[0]! + counts[1]!, 0);
}

const del = (server: TestServer, creds: Credentials, path: string) => request(server.url + path, { method: 'DELETE', headers: authHeaders(creds) });

suiteOnEachDatabase(
  "a candidate's rights: access and erasure",
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' }, receiver: true },
  ({ db, server, creds, receiver, cliEnv }) => {
    test('GET returns everything held: fields, assessments, answers, results and webhook outcomes, never the webhook credentials', async () => {
      const a = await newAssessment(
        server.url,
        creds,
        { WebhookUrl: receiver.url('/access'), WebhookUsername: 'ats', WebhookPassword: 'never-shown-s3cret' },
        { FirstName: 'Fenna', Preposition: 'de', LastName: 'Wit', Email: 'fenna.dewit@example.nl' },
      );
      await completeViaForms(new FormClient(server.url), a.id);
      await eventually(async () => ((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Webhook.Status === 'Delivered' ? true : undefined));
      const open = await a.api.createAssessment({ ExternalId: a.externalId, AssessmentType: 1 });

      const res = await a.api.get(`/api/anonymous/candidate/${a.externalId}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const d = res.body.Data;
      assert.deepEqual(
        [d.Candidate.ExternalId, d.Candidate.Email, d.Candidate.FirstName, d.Candidate.Preposition, d.Candidate.LastName],
        [a.externalId, 'fenna.dewit@example.nl', 'Fenna', 'de', 'Wit'],
      );
      assert.deepEqual(
        d.Assessments.map((x: any) => [x.AnalysisId, x.Status]),
        [
          [a.id, 'Completed'],
          [open.body.Data.AnalysisId, 'Created'],
        ],
      );
      const done = d.Assessments[0];
      assert.equal(done.Answers.length, 170);
      assert.equal(done.SecondsPerPage.length, 17);
      assert.equal(done.Results.Scales.length, 26);
      assert.equal(done.Results.Competences.length, 21);
      assert.equal(done.Webhook.Status, 'Delivered');
      assert.equal(done.WebhookUrl, receiver.url('/access'));
      assert.doesNotMatch(res.text, /never-shown-s3cret|WebhookPassword|WebhookUsername/);
      assert.equal(d.Retention.Days, 180);
      const expires = Date.parse(d.Assessments[1].ExpiresAt);
      assert.equal(d.Retention.ErasedAfter, new Date(expires + 180 * 86_400_000).toISOString(), 'retention runs from when the open assessment expires');
    });

    test("another tenant's candidate, or an unknown one, is a 404 for both GET and DELETE", async () => {
      const a = await newAssessment(server.url, creds);
      const other = await server.tenant();
      for (const [path, who] of [
        [`/api/anonymous/candidate/${a.externalId}`, other],
        ['/api/anonymous/candidate/nobody-at-all', creds],
      ] as const) {
        const read = await apiClient(server.url, who).get(path);
        assert.equal(read.status, 404);
        assert.equal(errorCode(read), 'NotFound');
        const erase = await del(server, who, path);
        assert.equal(erase.status, 404);
      }
      assert.equal((await a.api.get(`/api/anonymous/candidate/${a.externalId}`)).status, 200, 'still there');
    });

    test('DELETE erases everything: the links stop working, the ExternalId is free again, and an audit row keeps only counts', async () => {
      const a = await newAssessment(server.url, creds, { WebhookUrl: receiver.url('/erase'), WebhookUsername: 'ats', WebhookPassword: 'pw' });
      await completeViaForms(new FormClient(server.url), a.id);
      const link = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl as string;
      const erased = await del(server, creds, `/api/anonymous/candidate/${a.externalId}`);
      assert.equal(erased.status, 200);
      assert.deepEqual(erased.body.Data, { ExternalId: a.externalId, ErasedAssessments: 1, ErasedAnswers: 170 });

      assert.equal((await a.api.get(`/api/anonymous/candidate/${a.externalId}`)).status, 404);
      assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).status, 404);
      assert.equal((await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).status, 404);
      assert.equal((await new FormClient(server.url).get(startPath(a.id))).status, 404, 'the assessment link');
      assert.equal((await request(server.url + localPath(link))).status, 404, 'the report share link');
      const store = server.running.deps.store.db;
      for (const table of ['assessment_answers', 'assessment_page_times', 'webhook_attempts', 'assessments'] as const) {
        const left = await store.selectFrom(table).select('analysis_id').where('analysis_id', '=', a.id).execute();
        assert.deepEqual(left, [], table);
      }
      assert.equal((await a.api.createCandidate(candidate({ ExternalId: a.externalId }))).status, 201, 'the ExternalId may be used again');

      const audit = await store
        .selectFrom('erasures')
        .selectAll()
        .where('erased_by', '=', `api:${(creds as unknown as { apiKeyId: string }).apiKeyId}`)
        .execute();
      assert.equal(audit.length, 1);
      assert.deepEqual([audit[0]!.reason, audit[0]!.assessments, audit[0]!.answers], ['request', 1, 170]);
      assert.ok(!JSON.stringify(audit).includes(a.externalId), 'no ExternalId in the audit');
    });

    test('bin/assay candidate erase does the same from the command line', async () => {
      const a = await newAssessment(server.url, creds);
      const r = await runCli(['candidate', 'erase', '--external-id', a.externalId, '--json'], cliEnv);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).assessments, 1);
      assert.equal((await a.api.get(`/api/anonymous/candidate/${a.externalId}`)).status, 404);
      const again = await runCli(['candidate', 'erase', '--external-id', a.externalId], cliEnv);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /No candidate/);
    });

    test("after erasure no byte of the candidate's e-mail or name is left in the SQLite file, its WAL or SHM", onlyOn('sqlite', db), async () => {
      const email = `erase.me.${process.pid}@example.org`;
      const name = { FirstName: 'Wilhelmina', Preposition: 'van', LastName: `Zuylen-${process.pid}` };
      const a = await newAssessment(server.url, creds, {}, { Email: email, ...name });
      await completeViaForms(new FormClient(server.url), a.id);
      assert.ok(occurrences(server.dataDir, email) > 0, 'the scan finds the e-mail before erasure');
      assert.ok(occurrences(server.dataDir, name.LastName) > 0, 'and the name');
      assert.equal((await del(server, creds, `/api/anonymous/candidate/${a.externalId}`)).status, 200);
      assert.equal(occurrences(server.dataDir, email), 0, 'the e-mail');
      assert.equal(occurrences(server.dataDir, name.LastName), 0, 'the last name');
      assert.equal(occurrences(server.dataDir, a.externalId), 0, 'the ExternalId');
    });
  },
);

suiteOnEachDatabase('retention: personal data leaves on its own', { tenant: false }, ({ server, cliEnv: env }) => {
  test('a tenant with zero days keeps nothing closed; open assessments stay; two sweeps at once erase each candidate once', async () => {
    const short = (await server.tenant()) as Credentials & { tenantId: string };
    const long = await server.tenant();
    const set = await runCli(['tenant', 'set', '--tenant', short.tenantId, '--retention-days', '0'], env);
    assert.equal(set.code, 0, set.stderr);

    const completed = await newAssessment(server.url, short);
    await completeViaForms(new FormClient(server.url), completed.id);
    const cancelled = await newAssessment(server.url, short);
    await del(server, short, `/api/anonymous/assessment/${cancelled.id}`);
    // Three seconds leave a busy machine room to create it before its expiry; the sweep runs once the clock has passed it.
    const expiresAt = Date.now() + 3_000;
    const expired = await newAssessment(server.url, short, { ExpiresAt: new Date(expiresAt).toISOString() });
    const open = await newAssessment(server.url, short);
    const otherTenant = await newAssessment(server.url, long);
    await completeViaForms(new FormClient(server.url), otherTenant.id);
    await eventually(async () => (Date.now() > expiresAt + 100 ? true : undefined), 10_000, 'the expiry passed');

    const [one, two] = await Promise.all([runCli(['candidate', 'sweep', '--json'], env), runCli(['candidate', 'sweep', '--json'], env)]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(two.code, 0, two.stderr);
    assert.equal(JSON.parse(one.stdout).erased + JSON.parse(two.stdout).erased, 3, 'completed, cancelled and expired: each once');

    const gone = (x: { externalId: string }) => apiClient(server.url, short).get(`/api/anonymous/candidate/${x.externalId}`);
    for (const x of [completed, cancelled, expired]) assert.equal((await gone(x)).status, 404, x.externalId);
    assert.equal((await gone(open)).status, 200, 'an open assessment keeps its candidate');
    assert.equal(
      (await apiClient(server.url, long).get(`/api/anonymous/candidate/${otherTenant.externalId}`)).status,
      200,
      'RETENTION_DAYS (180) for the other tenant',
    );
    const audit = await server.running.deps.store.db.selectFrom('erasures').selectAll().where('tenant_id', '=', short.tenantId).execute();
    assert.deepEqual(
      audit.map((r) => [r.reason, r.erased_by]),
      Array(3).fill(['retention', 'retention']),
    );
  });
});
