import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, errorCode, request, type Credentials } from '../helpers/http.js';
import { LIST, listPage, walk } from '../helpers/assessment-list.js';

suiteOnEachDatabase('the assessment list stays within its tenant', {}, ({ server }) => {
  let owner: Credentials;
  let other: Credentials;
  const mine: Array<{ id: string; externalId: string }> = [];
  const theirs: Array<{ id: string; externalId: string }> = [];
  before(async () => {
    owner = await server.tenant();
    other = await server.tenant();
    for (let i = 0; i < 4; i++) mine.push(await newAssessment(server.url, owner));
    for (let i = 0; i < 3; i++) theirs.push(await newAssessment(server.url, other));
  });

  test("another tenant's assessments never appear, with or without filters; they are there for their owner", async () => {
    assert.deepEqual(
      await walk(server.url, other, { Limit: 2 }),
      theirs.map((a) => a.id),
      "the other tenant's own, and only those",
    );
    assert.deepEqual(
      await walk(server.url, owner, { Limit: 2 }),
      mine.map((a) => a.id),
      "the owner's own, and only those",
    );
    const queries: Record<string, string>[] = [{ Status: 'Created' }, { UpdatedSince: '2000-01-01T00:00:00Z' }, { ExternalId: mine[0]!.externalId }];
    for (const query of queries) {
      const seen = await walk(server.url, other, query);
      assert.ok(!seen.some((id) => mine.some((a) => a.id === id)), JSON.stringify(query));
    }
    assert.deepEqual(await walk(server.url, owner, { ExternalId: mine[0]!.externalId }), [mine[0]!.id], 'the ExternalId filter finds it for its owner');
    assert.deepEqual(await walk(server.url, other, { ExternalId: mine[0]!.externalId }), [], 'and nothing for another tenant');
  });

  test("a Cursor from another tenant is a 400 and shows nothing of theirs; the owner's own goes on", async () => {
    const page = await listPage(server.url, owner, { Limit: 1 });
    assert.ok(page.Cursor);
    const res = await apiClient(server.url, other).get(`${LIST}?Limit=1&Cursor=${encodeURIComponent(page.Cursor)}`);
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'ValidationError');
    assert.equal(res.body.error.innererror.field, 'Cursor');
    assert.ok(!res.text.includes(mine[1]!.id) && !res.text.includes(mine[1]!.externalId));
    assert.equal((await listPage(server.url, owner, { Limit: 1, Cursor: page.Cursor })).Assessments[0]!.AnalysisId, mine[1]!.id);
  });

  test('without credentials, or with wrong ones, the list is a 401 in the envelope', async () => {
    const none = await request(`${server.url}${LIST}`);
    assert.equal(none.status, 401);
    assert.equal(errorCode(none), 'InvalidApiKey');
    const wrong = await apiClient(server.url, { ...owner, password: `${owner.password}x` }).get(LIST);
    assert.equal(wrong.status, 401);
    assert.equal(errorCode(wrong), 'InvalidCredentials');
    assert.equal((await apiClient(server.url, owner).get(LIST)).status, 200);
  });
});
