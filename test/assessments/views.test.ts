import assert from 'node:assert/strict';
import { readAssessment, readCandidate } from '../../src/assessments/views.js';
import type { IssuedCredentials } from '../../src/tenancy/provision.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, candidate } from '../helpers/http.js';
import { countStatements } from '../helpers/queries.js';
import { eventually } from '../helpers/receiver.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

suiteOnEachDatabase(
  'the views of assessments, read in a fixed number of queries',
  { receiver: true, timeout: 240_000, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000' } },
  ({ server, creds, receiver }) => {
    /** A candidate with `n` completed assessments, each with a webhook that was delivered. */
    async function candidateWith(n: number, by: IssuedCredentials = creds) {
      const api = apiClient(server.url, by);
      const body = candidate();
      assert.equal((await api.createCandidate(body)).status, 201);
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const a = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0, WebhookUrl: receiver.url(`/views/${body.ExternalId}`) });
        assert.equal(a.status, 201, a.text);
        ids.push(a.body.Data.AnalysisId);
        await completeViaForms(new FormClient(server.url), a.body.Data.AnalysisId);
      }
      await eventually(async () => (receiver.received.filter((r) => r.url === `/views/${body.ExternalId}`).length === n ? true : undefined));
      // Nothing of the dispatcher's runs while queries are counted: a one-minute poll, and no attempt in flight.
      await dispatcherQuiet(server.running.deps.webhooks);
      return { externalId: String(body.ExternalId), ids, api };
    }

    test('the access call (GET candidate) makes as many queries for 6 assessments as for 1', async () => {
      const store = server.running.deps.store;
      const counted = async (c: Awaited<ReturnType<typeof candidateWith>>) => {
        const path = `/api/anonymous/candidate/${c.externalId}`;
        // Once first, so caches that fill on a first read (the key, the norm group) are filled for both.
        assert.equal((await c.api.get(path)).status, 200);
        const { result, count, sql } = await countStatements(store, () => c.api.get(path));
        assert.equal(result.status, 200, result.text);
        assert.equal(result.body.Data.Assessments.length, c.ids.length);
        for (const a of result.body.Data.Assessments) {
          assert.ok(a.Answers.length > 0 && a.SecondsPerPage.length > 0 && a.Results.Scales.length > 0, 'answers, page times and results are there');
          assert.equal(a.Webhook.Attempts, 1);
        }
        return { count, sql };
      };
      const one = await counted(await candidateWith(1));
      const six = await counted(await candidateWith(6));
      assert.ok(one.count > 0, `queries are counted: ${one.count}`);
      // The positive control: the batched reads of the assessments' answers and page times are among those counted.
      assert.ok(
        one.sql.some((q) => /from "assessment_answers" where "analysis_id" in/.test(q)),
        one.sql.join('\n'),
      );
      assert.equal(six.count, one.count, `6 assessments: ${six.sql.join('\n')}\n1 assessment: ${one.sql.join('\n')}`);
    });

    test('readCandidate and readAssessment give a second door what the API shows, and nothing of another tenant', async () => {
      const c = await candidateWith(2);
      const deps = server.running.deps;
      const record = await readCandidate(deps, creds, c.externalId);
      assert.ok(record);
      assert.deepEqual(
        record.assessments.map((a) => a.analysisId),
        c.ids,
      );
      const api = (await c.api.get(`/api/anonymous/candidate/${c.externalId}`)).body.Data;
      assert.equal(record.candidate.email, api.Candidate.Email);
      for (const [i, view] of record.assessments.entries()) {
        assert.equal(view.status, 'Completed');
        assert.equal(view.details?.answers?.length, api.Assessments[i].Answers.length);
        assert.deepEqual(
          view.details?.result?.scales.map((s) => s.raw),
          api.Assessments[i].Results.Scales.map((s: { Raw: number }) => s.Raw),
        );
      }
      const looked = await readAssessment(deps, creds, c.ids[0]!);
      const shown = (await c.api.get(`/api/anonymous/assessment/${c.ids[0]}`)).body.Data;
      assert.equal(looked?.answeredItems, shown.AnsweredItems);
      assert.equal(looked?.webhook?.count, shown.Webhook.Attempts);
      assert.equal(looked?.details, undefined, 'the lookup reads no answers');
      const other = { ...creds, tenantId: 'another-tenant' };
      assert.equal(await readCandidate(deps, other, c.externalId), undefined);
      assert.equal(await readAssessment(deps, other, c.ids[0]!), undefined);
    });
  },
);
