import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient, startPath } from '../helpers/forms.js';
import { apiClient, type Credentials } from '../helpers/http.js';
import { LIST, listPage, walk } from '../helpers/assessment-list.js';

const ids = (data: { Assessments: Array<Record<string, any>> }) => data.Assessments.map((a) => String(a.AnalysisId)).sort();

suiteOnEachDatabase('the assessment list', {}, ({ server }) => {
  // One tenant with one assessment in each status, made in this order: created, expired, started, completed, cancelled.
  let creds: Credentials;
  const by: Record<string, { id: string; externalId: string }> = {};
  before(async () => {
    creds = await server.tenant();
    by.Created = await newAssessment(server.url, creds);
    by.Expired = await newAssessment(server.url, creds, { ExpiresAt: new Date(Date.now() + 1_500).toISOString() });
    by.Started = await newAssessment(server.url, creds);
    assert.equal((await new FormClient(server.url).submit(startPath(by.Started.id), {})).status, 303);
    by.Completed = await newAssessment(server.url, creds);
    await completeViaForms(new FormClient(server.url), by.Completed.id);
    by.Cancelled = await newAssessment(server.url, creds);
    assert.equal((await apiClient(server.url, creds).delete(`/api/anonymous/assessment/${by.Cancelled.id}`)).status, 200);
    // Expiry is the clock, not a write: wait, with a deadline, until the lookup shows it.
    for (const until = Date.now() + 30_000; ;) {
      const res = await apiClient(server.url, creds).get(`/api/anonymous/assessment/${by.Expired.id}`);
      if (res.body.Data.Status === 'Expired') break;
      assert.ok(Date.now() < until, 'expired within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  const lookup = async (id: string) => (await apiClient(server.url, creds).get(`/api/anonymous/assessment/${id}`)).body.Data;

  test('without filters: every assessment of the tenant, each exactly as its lookup shows it', async () => {
    const data = await listPage(server.url, creds);
    assert.equal(data.Cursor, null);
    assert.deepEqual(
      ids(data),
      Object.values(by)
        .map((a) => a.id)
        .sort(),
    );
    for (const item of data.Assessments) assert.deepEqual(item, await lookup(item.AnalysisId));
    const done = data.Assessments.find((a) => a.AnalysisId === by.Completed!.id)!;
    assert.ok(done.Scores.length > 0 && done.AnsweredItems === done.TotalItems, 'the completed one carries its scores and progress');
  });

  test('Status: each status lists its one assessment and none of the others', async () => {
    for (const status of ['Created', 'Started', 'Completed', 'Expired', 'Cancelled']) {
      const data = await listPage(server.url, creds, { Status: status });
      assert.deepEqual(ids(data), [by[status]!.id], status);
      assert.equal(data.Assessments[0]!.Status, status);
    }
  });

  test("ExternalId: the candidate's own assessment, and nothing for an ExternalId without one", async () => {
    assert.deepEqual(ids(await listPage(server.url, creds, { ExternalId: by.Started!.externalId })), [by.Started!.id]);
    assert.deepEqual(ids(await listPage(server.url, creds, { ExternalId: 'no-such-candidate' })), []);
  });

  test('CompletedSince: the completion at its instant, and nothing a millisecond after it', async () => {
    const at: string = (await lookup(by.Completed!.id)).CompletedAt;
    assert.deepEqual(ids(await listPage(server.url, creds, { CompletedSince: at })), [by.Completed!.id]);
    assert.deepEqual(ids(await listPage(server.url, creds, { CompletedSince: new Date(Date.parse(at) + 1).toISOString() })), []);
    // Another spelling of the same instant, in another time zone, is the same filter.
    const local = new Date(Date.parse(at) - 2 * 3_600_000).toISOString().replace('Z', '-02:00');
    assert.deepEqual(ids(await listPage(server.url, creds, { CompletedSince: local })), [by.Completed!.id]);
  });

  test('UpdatedSince: the cancellation (the last change) alone from its instant; every one from the first creation', async () => {
    const cancelledAt: string = (await lookup(by.Cancelled!.id)).CancelledAt;
    assert.deepEqual(ids(await listPage(server.url, creds, { UpdatedSince: cancelledAt })), [by.Cancelled!.id]);
    assert.deepEqual(ids(await listPage(server.url, creds, { UpdatedSince: new Date(Date.parse(cancelledAt) + 1).toISOString() })), []);
    const first: string = (await lookup(by.Created!.id)).CreatedAt;
    assert.deepEqual(
      ids(await listPage(server.url, creds, { UpdatedSince: first })),
      Object.values(by)
        .map((a) => a.id)
        .sort(),
    );
  });

  test('filters combine: Status with ExternalId matches only when both hold', async () => {
    assert.deepEqual(ids(await listPage(server.url, creds, { Status: 'Completed', ExternalId: by.Completed!.externalId })), [by.Completed!.id]);
    assert.deepEqual(ids(await listPage(server.url, creds, { Status: 'Created', ExternalId: by.Completed!.externalId })), []);
  });

  test('query names match case-insensitively, like body properties', async () => {
    assert.deepEqual(ids(await listPage(server.url, creds, { status: 'Cancelled', LIMIT: 1 })), [by.Cancelled!.id]);
  });

  test('a walk of Limit 4 sees every assessment once, in creation order, and ones created during it at its end', async () => {
    const walker = await server.tenant();
    const made: string[] = [];
    for (let i = 0; i < 13; i++) made.push((await newAssessment(server.url, walker)).id);
    const added: string[] = [];
    const seen = await walk(server.url, walker, { Limit: 4 }, async (page) => {
      if (page === 1) for (let i = 0; i < 3; i++) added.push((await newAssessment(server.url, walker)).id);
    });
    assert.deepEqual(seen, [...made, ...added], 'no duplicates, no gaps, the new ones last');
    const pages = await walk(server.url, walker, { Limit: 100 });
    assert.deepEqual(pages, seen, 'Limit 100 is one page');
    assert.equal((await listPage(server.url, walker, { Limit: 16 })).Cursor, null, 'a page that holds the rest has no Cursor');
    assert.notEqual((await listPage(server.url, walker, { Limit: 15 })).Cursor, null, 'one that does not, has one');
  });

  test('an UpdatedSince walk sees a row that changed during it again, at its end, with its new state', async () => {
    const walker = await server.tenant();
    const made: string[] = [];
    for (let i = 0; i < 6; i++) made.push((await newAssessment(server.url, walker)).id);
    const seen = await walk(server.url, walker, { Limit: 2, UpdatedSince: '2000-01-01T00:00:00Z' }, async (page) => {
      if (page === 0) assert.equal((await apiClient(server.url, walker).delete(`/api/anonymous/assessment/${made[0]}`)).status, 200);
    });
    assert.deepEqual(seen, [...made, made[0]]);
  });

  test('the list is GET only, under its documented path', async () => {
    const res = await apiClient(server.url, creds).post(LIST, {});
    assert.equal(res.status, 404);
  });
});
