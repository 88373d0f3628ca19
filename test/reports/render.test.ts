import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Store } from '../../src/db/database.js';
import { eraseCandidate } from '../../src/lifecycle/erase.js';
import { renderCache } from '../../src/reports/render-cache.js';
import { onlyOn } from '../helpers/databases.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { errorCode } from '../helpers/http.js';
import { countQueries } from '../helpers/queries.js';
import { otherConnection } from '../helpers/server.js';

/** The reads a results or report request can make: the assessment's summary, its whole row, its candidate's row. */
const READS = {
  summary: (sql: string) => sql.includes('"candidate_updated_at"'),
  row: (sql: string) => /^select \* from "assessments" where/.test(sql),
  candidate: (sql: string) => /^select \* from "candidates" where/.test(sql),
};

suiteOnEachDatabase('reads of results and reports, kept and made', { timeout: 60_000 }, ({ db, server, creds }) => {
  let store: Store;
  before(async () => {
    store = server.running.deps.store;
  });

  async function completed() {
    const a = await newAssessment(server.url, creds);
    await completeViaForms(new FormClient(server.url), a.id);
    return a;
  }

  const reads = <T>(fn: () => Promise<T>) => countQueries(store, READS, fn);

  // On SQLite a kept summary is served while the summaries version holds; PostgreSQL reads it every time.
  const headReads = db === 'sqlite' ? 0 : 1;

  test(`a repeated results read is served after ${db === 'sqlite' ? 'no read (the summary kept)' : 'a read of the summary alone'}: the whole row is read only to make it`, async () => {
    const a = await completed();
    const path = `/api/candidateanalysisresult/${a.id}/en-GB`;
    const first = await reads(() => a.api.get(path));
    assert.equal(first.result.status, 200);
    assert.equal(first.result.body.Done, true);
    assert.deepEqual(first.counts, { summary: 1, row: 1, candidate: 0 });
    const again = await reads(() => a.api.get(path));
    assert.equal(again.result.text, first.result.text);
    assert.deepEqual(again.counts, { summary: headReads, row: 0, candidate: 0 });
  });

  test(`a repeated report read is served after ${db === 'sqlite' ? 'no read (the summary kept)' : 'a read of the summary alone'}: neither the row nor the candidate is read again`, async () => {
    const a = await completed();
    const path = `/api/anonymous/assessment/${a.id}/report?lang=en`;
    const first = await reads(() => a.api.get(path));
    assert.equal(first.result.status, 200);
    assert.match(first.result.text, /<svg/);
    assert.deepEqual(first.counts, { summary: 1, row: 1, candidate: 1 });
    const again = await reads(() => a.api.get(path));
    assert.equal(again.result.text, first.result.text);
    assert.deepEqual(again.counts, { summary: headReads, row: 0, candidate: 0 });
  });

  test('an assessment erased between its summary read and its render is a 404 for results and report, and nothing is kept', async () => {
    for (const route of ['results', 'report'] as const) {
      const a = await completed();
      const path = route === 'results' ? `/api/candidateanalysisresult/${a.id}/en-GB` : `/api/anonymous/assessment/${a.id}/report?lang=en`;
      const kept = renderCache(store).size;
      const { result, counts } = await countQueries(store, READS, () => a.api.get(path), {
        kind: 'summary',
        run: () => eraseCandidate({ store }, a.externalId, { erasedBy: 'test', reason: 'request' }),
      });
      assert.equal(result.status, 404, `${route}: ${result.text}`);
      assert.equal(errorCode(result), 'NotFound', route);
      assert.equal(counts.summary, 1, route);
      assert.equal(renderCache(store).size, kept, `${route}: nothing kept`);
    }
  });

  /** Runs `statement` on a connection of its own, as the CLI or another process would. */
  function elsewhere(statement: string, ...args: unknown[]): void {
    const other = otherConnection(server);
    try {
      other.prepare(statement).run(...args);
    } finally {
      other.close();
    }
  }

  test(
    'a kept summary is read anew once another process changes a column of it: results the candidate declined to release are withheld',
    onlyOn('sqlite', db),
    async () => {
      const a = await completed();
      const path = `/api/candidateanalysisresult/${a.id}/en-GB`;
      const first = await a.api.get(path);
      assert.ok(first.body.NormScoreScales.length > 0);
      assert.equal((await reads(() => a.api.get(path))).counts.summary, 0, 'kept');
      elsewhere("UPDATE assessments SET results_release = 'declined' WHERE analysis_id = ?", a.id);
      const after = await reads(() => a.api.get(path));
      assert.equal(after.counts.summary, 1);
      assert.deepEqual(after.result.body.NormScoreScales, []);
      assert.match(after.result.body.Note, /not released/);
    },
  );

  test('a change by another process to a column the summary does not hold leaves the kept summary in use', onlyOn('sqlite', db), async () => {
    const a = await completed();
    const path = `/api/candidateanalysisresult/${a.id}/en-GB`;
    const first = await a.api.get(path);
    elsewhere("UPDATE assessments SET last_activity_at = '2030-01-01T00:00:00.000Z' WHERE analysis_id = ?", a.id);
    const again = await reads(() => a.api.get(path));
    assert.deepEqual(again.counts, { summary: 0, row: 0, candidate: 0 });
    assert.equal(again.result.text, first.text);
  });
});
