import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { candidate } from '../helpers/http.js';
import { fetchDocument, responseChecker, typedClient } from '../helpers/openapi.js';
import { eventually } from '../helpers/receiver.js';

type Checker = Awaited<ReturnType<typeof responseChecker>>;

/**
 * The API called the way a TypeScript integrator would: openapi-fetch, typed by the types
 * openapi-typescript generated from /openapi.json (test/generated). A call the document does not
 * describe does not compile; a response it does not describe (status, body, error code) is a
 * mismatch, checked against the document with Ajv.
 */
suiteOnEachDatabase(
  'every API route through the client generated from the OpenAPI document',
  { smtp: true, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' } },
  ({ server, creds }) => {
    let checker: Checker;
    let api: ReturnType<typeof typedClient>;
    before(async () => {
      checker = await responseChecker(await fetchDocument(server.url));
      api = typedClient(server.url, creds, checker.middleware);
    });

    const newCandidate = async () => {
      const body = candidate() as { ExternalId: string; Email: string; FirstName: string; LastName: string; Preposition: string };
      const { data, response } = await api.POST('/api/anonymous/candidate', { body });
      assert.equal(response.status, 201);
      assert.equal(data!.Data.ExternalId, body.ExternalId);
      return body.ExternalId;
    };
    const newAssessment = async (externalId: string, extra: { WebhookUrl?: string } = {}) => {
      const { data, response } = await api.POST('/api/anonymous/assessment', { body: { ExternalId: externalId, AssessmentType: 0, ...extra } });
      assert.equal(response.status, 201);
      return data!.Data.AnalysisId;
    };

    test('candidates: create, read, erase, and their errors', async () => {
      const id = await newCandidate();
      const dup = await api.POST('/api/anonymous/candidate', {
        body: { ExternalId: id, Email: 'a@example.com', FirstName: 'Ann', LastName: 'Lee', Preposition: '' },
      });
      assert.equal(dup.error?.error.code, 'ExternalIdAlreadyExists');
      const bad = await api.POST('/api/anonymous/candidate', { body: { ExternalId: 'x1', Email: 'nope', FirstName: 'Ann', LastName: 'Lee', Preposition: '' } });
      assert.equal(bad.error?.error.code, 'ValidationError');
      const huge = await api.POST('/api/anonymous/candidate', {
        body: { ExternalId: 'x'.repeat(70_000), Email: 'a@example.com', FirstName: 'Ann', LastName: 'Lee', Preposition: '' },
      });
      assert.equal(huge.error?.error.code, 'PayloadTooLarge');
      const text = await api.POST('/api/anonymous/candidate', {
        body: { ExternalId: 'x2', Email: 'a@example.com', FirstName: 'Ann', LastName: 'Lee', Preposition: '' },
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(text.error?.error.code, 'UnsupportedMediaType');
      const broken = await api.POST('/api/anonymous/candidate', {
        body: { ExternalId: 'x3', Email: 'a@example.com', FirstName: 'Ann', LastName: 'Lee', Preposition: '' },
        bodySerializer: () => '{"ExternalId":',
      });
      assert.equal(broken.error?.error.code, 'InvalidJson');

      const got = await api.GET('/api/anonymous/candidate/{ExternalId}', { params: { path: { ExternalId: id } } });
      assert.equal(got.data?.Data.Candidate.ExternalId, id);
      const missing = await api.GET('/api/anonymous/candidate/{ExternalId}', { params: { path: { ExternalId: 'nobody' } } });
      assert.equal(missing.error?.error.code, 'NotFound');
      const erased = await api.DELETE('/api/anonymous/candidate/{ExternalId}', { params: { path: { ExternalId: id } } });
      assert.equal(erased.response.status, 200);
      const again = await api.DELETE('/api/anonymous/candidate/{ExternalId}', { params: { path: { ExternalId: id } } });
      assert.equal(again.error?.error.code, 'NotFound');
    });

    test('credentials: a wrong key and a wrong password, on a read and on a write', async () => {
      const wrongKey = typedClient(server.url, { ...creds, apiKey: 'not-a-key' }, checker.middleware);
      const wrongPassword = typedClient(server.url, { ...creds, password: 'not-the-password' }, checker.middleware);
      const r1 = await wrongKey.GET('/api/anonymous/assessment/{AnalysisId}', { params: { path: { AnalysisId: 'x' } } });
      assert.equal(r1.error?.error.code, 'InvalidApiKey');
      const r2 = await wrongPassword.POST('/api/anonymous/candidate', {
        body: { ExternalId: 'x4', Email: 'a@example.com', FirstName: 'Ann', LastName: 'Lee', Preposition: '' },
      });
      assert.equal(r2.error?.error.code, 'InvalidCredentials');
    });

    test('assessments: create, look up, cancel, and their errors', async () => {
      const externalId = await newCandidate();
      const noCandidate = await api.POST('/api/anonymous/assessment', { body: { ExternalId: 'nobody', AssessmentType: 0 } });
      assert.equal(noCandidate.error?.error.code, 'NoCandidateFound');
      const badType = await api.POST('/api/anonymous/assessment', { body: { ExternalId: externalId, AssessmentType: 5 } });
      assert.equal(badType.error?.error.code, 'InvalidAssessmentType');
      const id = await newAssessment(externalId);
      const status = await api.GET('/api/anonymous/assessment/{AnalysisId}', { params: { path: { AnalysisId: id } } });
      assert.equal(status.data?.Data.Status, 'Created');
      const cancelled = await api.DELETE('/api/anonymous/assessment/{AnalysisId}', { params: { path: { AnalysisId: id } } });
      assert.equal(cancelled.data?.Data.Status, 'Cancelled');
      const missing = await api.DELETE('/api/anonymous/assessment/{AnalysisId}', { params: { path: { AnalysisId: 'no-such' } } });
      assert.equal(missing.error?.error.code, 'NotFound');
      const missingStatus = await api.GET('/api/anonymous/assessment/{AnalysisId}', { params: { path: { AnalysisId: 'no-such' } } });
      assert.equal(missingStatus.error?.error.code, 'NotFound');
    });

    test('a completed assessment: results, report, webhook log and redelivery, and their errors', async () => {
      const externalId = await newCandidate();
      // Port 9 refuses: the automatic attempt fails, so a redelivery is allowed.
      const id = await newAssessment(externalId, { WebhookUrl: 'http://127.0.0.1:9/hook' });
      const early = await api.GET('/api/anonymous/assessment/{AnalysisId}/report', { params: { path: { AnalysisId: id } } });
      assert.equal(early.error?.error.code, 'NotFound');
      await completeViaForms(new FormClient(server.url), id);

      const result = await api.GET('/api/candidateanalysisresult/{token}/{culture}', { params: { path: { token: id, culture: 'en-GB' } } });
      assert.equal(result.data?.Done, true);
      assert.ok(result.data!.NormScoreScales.length > 0);
      const badCulture = await api.GET('/api/candidateanalysisresult/{token}/{culture}', { params: { path: { token: id, culture: 'xx-XX' } } });
      assert.equal(badCulture.error?.error.code, 'ValidationError');
      const noResult = await api.GET('/api/candidateanalysisresult/{token}/{culture}', { params: { path: { token: 'no-such', culture: 'en-GB' } } });
      assert.equal(noResult.error?.error.code, 'NotFound');

      const report = await api.GET('/api/anonymous/assessment/{AnalysisId}/report', {
        params: { path: { AnalysisId: id }, query: { lang: 'en' } },
        parseAs: 'text',
      });
      assert.equal(report.response.status, 200);
      assert.match(report.data!, /<html/);
      const pdf = await api.GET('/api/anonymous/assessment/{AnalysisId}/report', {
        params: { path: { AnalysisId: id }, query: { format: 'pdf' } },
        parseAs: 'arrayBuffer',
      });
      assert.equal(Buffer.from(pdf.data!).subarray(0, 5).toString(), '%PDF-');

      const log = await eventually(async () => {
        const l = await api.GET('/api/anonymous/assessment/{AnalysisId}/webhooks', { params: { path: { AnalysisId: id } } });
        return l.data?.Data[0]?.Status === 'Failed' ? l.data.Data : undefined;
      });
      assert.equal(log[0]!.Kind, 'Automatic');
      const redelivered = await api.POST('/api/anonymous/assessment/{AnalysisId}/webhook/redeliver', { params: { path: { AnalysisId: id } } });
      assert.equal(redelivered.response.status, 202);
      const twice = await api.POST('/api/anonymous/assessment/{AnalysisId}/webhook/redeliver', { params: { path: { AnalysisId: id } } });
      assert.ok(twice.error?.error.code === 'NotRedeliverable', JSON.stringify(twice.error));
      const noLog = await api.GET('/api/anonymous/assessment/{AnalysisId}/webhooks', { params: { path: { AnalysisId: 'no-such' } } });
      assert.equal(noLog.error?.error.code, 'NotFound');
      const noRedelivery = await api.POST('/api/anonymous/assessment/{AnalysisId}/webhook/redeliver', { params: { path: { AnalysisId: 'no-such' } } });
      assert.equal(noRedelivery.error?.error.code, 'NotFound');

      const revoked = await api.DELETE('/api/anonymous/assessment/{AnalysisId}/report-links', { params: { path: { AnalysisId: id } } });
      assert.equal(revoked.data?.Data.Revoked, true);
      const noLinks = await api.DELETE('/api/anonymous/assessment/{AnalysisId}/report-links', { params: { path: { AnalysisId: 'no-such' } } });
      assert.equal(noLinks.error?.error.code, 'NotFound');

      const cancelCompleted = await api.DELETE('/api/anonymous/assessment/{AnalysisId}', { params: { path: { AnalysisId: id } } });
      assert.equal(cancelCompleted.error?.error.code, 'AlreadyCompleted');
    });

    test('mail: the invitation sent again and the mail log, and their errors', async () => {
      const { data } = await api.POST('/api/anonymous/assessment', { body: { ExternalId: await newCandidate(), AssessmentType: 0, SendInvitation: true } });
      const id = data!.Data.AnalysisId;
      const sent = async () =>
        (await api.GET('/api/anonymous/assessment/{AnalysisId}/emails', { params: { path: { AnalysisId: id } } })).data?.Data[0]?.Status === 'Sent'
          ? true
          : undefined;
      await eventually(sent);
      const again = await api.POST('/api/anonymous/assessment/{AnalysisId}/invitation', { params: { path: { AnalysisId: id } } });
      assert.equal(again.response.status, 202);
      const cancelled = await newAssessment(await newCandidate());
      assert.equal((await api.DELETE('/api/anonymous/assessment/{AnalysisId}', { params: { path: { AnalysisId: cancelled } } })).response.status, 200);
      const over = await api.POST('/api/anonymous/assessment/{AnalysisId}/invitation', { params: { path: { AnalysisId: cancelled } } });
      assert.equal(over.error?.error.code, 'NotSendable');
      const noLog = await api.GET('/api/anonymous/assessment/{AnalysisId}/emails', { params: { path: { AnalysisId: 'no-such' } } });
      assert.equal(noLog.error?.error.code, 'NotFound');
      const noResend = await api.POST('/api/anonymous/assessment/{AnalysisId}/invitation', { params: { path: { AnalysisId: 'no-such' } } });
      assert.equal(noResend.error?.error.code, 'NotFound');
    });

    test('the list of assessments, a page after its Cursor, and its refusals', async () => {
      const ids = [await newAssessment(await newCandidate()), await newAssessment(await newCandidate())];
      const first = await api.GET('/api/anonymous/assessments', { params: { query: { Limit: 1 } } });
      assert.equal(first.data?.Data.Assessments.length, 1);
      const next = await api.GET('/api/anonymous/assessments', { params: { query: { Limit: 100, Cursor: first.data!.Data.Cursor! } } });
      assert.ok(ids.every((id) => [...first.data!.Data.Assessments, ...next.data!.Data.Assessments].some((a) => a.AnalysisId === id)));
      assert.equal(next.data?.Data.Cursor, null);
      const over = await api.GET('/api/anonymous/assessments', { params: { query: { Limit: 101 } } });
      assert.equal(over.error?.error.code, 'ValidationError');
      const badCursor = await api.GET('/api/anonymous/assessments', { params: { query: { Cursor: 'forged' } } });
      assert.equal(badCursor.error?.error.code, 'ValidationError');
    });

    test('the catalogue of assessment types, and its refusal', async () => {
      const { data } = await api.GET('/api/anonymous/assessmenttypes');
      assert.deepEqual(
        data?.Data.map((x) => [x.AssessmentType, x.Code]),
        [
          [0, 'TMA170'],
          [1, 'TMA312'],
          [2, 'SPI'],
        ],
      );
      const wrongKey = typedClient(server.url, { ...creds, apiKey: 'not-a-key' }, checker.middleware);
      assert.equal((await wrongKey.GET('/api/anonymous/assessmenttypes')).error?.error.code, 'InvalidApiKey');
    });

    test('the probes, without credentials', async () => {
      const open = typedClient(server.url, undefined, checker.middleware);
      assert.equal((await open.GET('/healthz')).data?.status, 'ok');
      assert.equal((await open.GET('/readyz')).data?.status, 'ready');
    });

    test('every response matched the document, and every operation was seen answering and refusing', () => {
      assert.deepEqual(checker.mismatches, []);
      assert.ok(checker.seen.length >= 30, `${checker.seen.length} responses checked`);
      const operations = Object.entries(checker.document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
        ['get', 'post', 'delete'].filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
      );
      for (const operation of operations) {
        const statuses = checker.seen.filter((s) => s.operation === operation).map((s) => s.status);
        assert.ok(
          statuses.some((s) => s < 300),
          `${operation}: a success went through the client`,
        );
        if (operation.includes('/api/'))
          assert.ok(
            statuses.some((s) => s >= 400),
            `${operation}: an error went through the client`,
          );
      }
    });
  },
);
