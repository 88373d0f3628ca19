import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { pageItems } from '../../src/measurement/instruments/flow.js';
import { findAssessment, type AssessmentRow } from '../../src/assessments/assessments-store.js';
import type { Store } from '../../src/db/database.js';
import { saveAnswers } from '../../src/assessments/answers-store.js';
import { onlyOn } from '../helpers/databases.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { FormClient, startPath } from '../helpers/forms.js';
import { authHeaders, request } from '../helpers/http.js';

suiteOnEachDatabase("a page's save against what its request read", { timeout: 60_000 }, ({ db, server, creds }) => {
  let store: Store;
  before(async () => {
    store = server.running.deps.store;
  });

  /** A started assessment, as the portal's session read sees it, with a page of answers for it. */
  async function started(): Promise<{ id: string; row: AssessmentRow; answers: (page: number) => Map<string, number> }> {
    const a = await newAssessment(server.url, creds);
    assert.equal((await new FormClient(server.url).submit(startPath(a.id), {})).status, 303);
    const row = (await findAssessment(store, a.id))!;
    assert.equal(row.status, 'Started');
    const instrument = server.running.deps.instruments.get(row.assessment_type)!;
    return { id: a.id, row, answers: (page) => new Map(pageItems(instrument, page).map((item) => [item.id, 3])) };
  }

  const answersOf = async (id: string) =>
    (await store.db.selectFrom('assessment_answers').select(['item_id', 'value']).where('analysis_id', '=', id).execute()).length;
  const pageMs = async (id: string, page: number) =>
    (await store.db.selectFrom('assessment_page_times').select('ms').where('analysis_id', '=', id).where('page', '=', page).executeTakeFirst())?.ms;

  test("a save the assessment still reads as its request saw stores the answers and the page's time, with no store.write transaction", async () => {
    const { id, row, answers } = await started();
    await sleep(40);
    const write = store.write;
    let transactions = 0;
    store.write = (fn) => {
      transactions++;
      return write(fn);
    };
    try {
      assert.equal(await saveAnswers(store, id, 1, answers(1), row), 'saved');
      assert.equal(transactions, 0);
      // The positive control: a store.write on the store the save was given is counted.
      await store.write(async () => {});
      assert.equal(transactions, 1, 'the hook counts a transaction');
    } finally {
      store.write = write;
    }
    assert.equal(await answersOf(id), answers(1).size);
    assert.ok((await pageMs(id, 1))! >= 35, `page 1 took ${await pageMs(id, 1)} ms`);
    assert.notEqual((await findAssessment(store, id))!.last_activity_at, row.last_activity_at);
  });

  test('a save whose assessment was cancelled after its request read it stores nothing and says closed', async () => {
    const { id, row, answers } = await started();
    const cancelled = await request(`${server.url}/api/anonymous/assessment/${id}`, { method: 'DELETE', headers: authHeaders(creds) });
    assert.equal(cancelled.status, 200);
    assert.equal(await saveAnswers(store, id, 1, answers(1), row), 'closed');
    assert.equal(await answersOf(id), 0);
    assert.equal(await pageMs(id, 1), undefined);
  });

  test('a save queued behind exclusive work until after its assessment expired stores nothing and says closed', onlyOn('sqlite', db), async () => {
    const { id, answers } = await started();
    // A second is ample for the two queries before the save is asked, even on a busy machine.
    const expiresAt = new Date(Date.now() + 1_000).toISOString();
    await store.write((trx) => trx.updateTable('assessments').set({ expires_at: expiresAt }).where('analysis_id', '=', id).execute());
    const seen = (await findAssessment(store, id))!;
    // Any transaction with logic in it holds the writer's batches while it is open: this one until the assessment has expired.
    const hold = store.write(async () => {
      while (Date.now() <= Date.parse(expiresAt)) await sleep(10);
    });
    await sleep(0);
    assert.ok(Date.now() < Date.parse(expiresAt), 'the save is asked for while the assessment is open');
    assert.equal(await saveAnswers(store, id, 1, answers(1), seen), 'closed');
    await hold;
    assert.equal(await answersOf(id), 0);
    assert.equal(await pageMs(id, 1), undefined);
  });

  test('a save read before another post of the same candidate is timed from that post, not from what it read', async () => {
    const { id, answers } = await started();
    // The start a minute ago rather than a sleep: timed from what it read, page 2 would take a minute.
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    await store.write((trx) => trx.updateTable('assessments').set({ last_activity_at: minuteAgo }).where('analysis_id', '=', id).execute());
    const stale = (await findAssessment(store, id))!;
    const from = Date.now();
    assert.equal(await saveAnswers(store, id, 1, answers(1), (await findAssessment(store, id))!), 'saved');
    assert.equal(await saveAnswers(store, id, 2, answers(2), stale), 'saved');
    const window = Date.now() - from;
    assert.ok(window < 30_000, `both saves took ${window} ms; the test needs them well under the minute it set back`);
    assert.ok((await pageMs(id, 2))! <= window, `page 2 took ${await pageMs(id, 2)} ms, within a window of ${window} ms`);
    assert.equal(await answersOf(id), answers(1).size + answers(2).size);
  });
});
