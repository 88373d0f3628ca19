import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, errorCode, type Credentials } from '../helpers/http.js';
import { LIST, listPage } from '../helpers/assessment-list.js';

suiteOnEachDatabase('the assessment list refuses bad queries', {}, ({ server }) => {
  let creds: Credentials;
  before(async () => {
    creds = await server.tenant();
    for (let i = 0; i < 3; i++) await newAssessment(server.url, creds);
  });

  /** A 400 ValidationError in the spec's envelope, naming the field, with a message matching `message`. */
  async function refused(query: string, field: string, message: RegExp) {
    const res = await apiClient(server.url, creds).get(`${LIST}?${query}`);
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(errorCode(res), 'ValidationError', query);
    assert.match(res.body.error.message, message, query);
    assert.equal(res.body.error.innererror.field, field, query);
  }

  test('Limit above 100, below 1 or not a whole number is refused; 1 and 100 are taken', async () => {
    await refused('Limit=101', 'Limit', /^Limit must be at most 100$/);
    await refused('Limit=100000000000', 'Limit', /^Limit must be an integer$/);
    await refused('Limit=0', 'Limit', /^Limit must be at least 1$/);
    await refused('Limit=2.5', 'Limit', /^Limit must be an integer$/);
    await refused('Limit=ten', 'Limit', /^Limit must be an integer$/);
    assert.equal((await listPage(server.url, creds, { Limit: 1 })).Assessments.length, 1);
    assert.equal((await listPage(server.url, creds, { Limit: 100 })).Assessments.length, 3);
  });

  test('Status must be one of the statuses, spelled as the lookup spells them', async () => {
    await refused('Status=Done', 'Status', /^Status must be one of Created, Started, Completed, Expired, Cancelled$/);
    await refused('Status=created', 'Status', /^Status must be one of /);
    assert.equal((await listPage(server.url, creds, { Status: 'Created' })).Assessments.length, 3);
  });

  test('UpdatedSince and CompletedSince must be ISO 8601 instants with a time zone', async () => {
    for (const field of ['UpdatedSince', 'CompletedSince']) {
      for (const bad of ['yesterday', '2026-12-01', '2026-12-01T00:00:00', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '1764547200']) {
        await refused(`${field}=${encodeURIComponent(bad)}`, field, new RegExp(`^${field} must be an ISO 8601 date-time with a time zone`));
      }
      assert.equal((await listPage(server.url, creds, { [field]: '2026-12-01T00:00:00+01:00' })).Cursor, null, `${field}: a good one is taken`);
    }
  });

  test('an unknown or repeated parameter is refused, not ignored', async () => {
    await refused('Statuss=Completed', 'Statuss', /is not a query parameter here; known: Status, ExternalId, UpdatedSince, CompletedSince, Limit, Cursor$/);
    await refused('Status=Created&Status=Started', 'Status', /^Status is given more than once$/);
    await refused('Status=Created&status=Started', 'Status', /^Status is given more than once$/);
  });

  test('a garbage, edited, truncated or re-filtered Cursor is a 400; the real one goes on', async () => {
    const first = await listPage(server.url, creds, { Limit: 1 });
    const cursor = first.Cursor!;
    assert.ok(cursor, 'the first page of three has a Cursor');
    const [payload, sig] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['created_at', '0000', ''])).toString('base64url');
    const edited = payload.slice(0, -1) + (payload.at(-1) === 'A' ? 'B' : 'A');
    for (const bad of ['x', 'not.a.cursor', `${forged}.${sig}`, `${edited}.${sig}`, payload, `${payload}.`, cursor.slice(0, -2), '%00', '.'.repeat(40)]) {
      await refused(`Limit=1&Cursor=${encodeURIComponent(bad)}`, 'Cursor', /^Cursor is not valid/);
    }
    await refused(`Limit=1&Status=Created&Cursor=${encodeURIComponent(cursor)}`, 'Cursor', /^Cursor is not valid/);
    await refused(`Cursor=${'a'.repeat(600)}`, 'Cursor', /^Cursor must be at most 512 characters$/);
    const second = await listPage(server.url, creds, { Limit: 1, Cursor: cursor });
    assert.equal(second.Assessments.length, 1);
    assert.notEqual(second.Assessments[0]!.AnalysisId, first.Assessments[0]!.AnalysisId);
  });
});
