import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { pageItems } from '../../src/measurement/instruments/flow.js';
import { findAssessment } from '../../src/assessments/assessments-store.js';
import type { Store } from '../../src/db/database.js';
import { saveAnswers } from '../../src/assessments/answers-store.js';
import type { Session } from '../../src/portal/session-store.js';
import { RECENT_SESSION_ANSWERS, RECENT_SESSIONS_MAX, RecentSessions, recentSessions } from '../../src/portal/recent-sessions.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken, FormClient, itemNames, startPath } from '../helpers/forms.js';
import { authHeaders, request } from '../helpers/http.js';
import { countQueries } from '../helpers/queries.js';

suiteOnEachDatabase('a page post and the session its page was shown from', { timeout: 60_000 }, ({ server, creds }) => {
  let store: Store;
  before(async () => {
    store = server.running.deps.store;
  });

  /** A started assessment, its browser, and page 1 as shown to it. */
  async function onPageOne() {
    const a = await newAssessment(server.url, creds);
    const client = new FormClient(server.url);
    assert.equal((await client.submit(startPath(a.id), {})).location, `/anonymous/analyse/${a.id}/questions/1`);
    const path = `/anonymous/analyse/${a.id}/questions/1`;
    const page = await client.get(path);
    assert.equal(page.status, 200);
    const fields = (value: string): Record<string, string> => {
      const f: Record<string, string> = { _csrf: csrfToken(page.html), nav: 'next' };
      for (const name of itemNames(page.html)) f[name] = value;
      return f;
    };
    return { ...a, client, path, fields };
  }

  /** Runs `fn` and counts the portal's session reads (the joined read with the answers' aggregate) it made. */
  async function sessionReads<T>(fn: () => Promise<T>): Promise<{ result: T; reads: number }> {
    const { result, counts } = await countQueries(store, { session: (sql) => sql.includes('string_agg') && sql.includes('candidates') }, fn);
    return { result, reads: counts.session };
  }

  const storedValues = async (id: string) =>
    (await store.db.selectFrom('assessment_answers').select('value').where('analysis_id', '=', id).execute()).map((r) => r.value);

  test('a whole page posted after its GET is saved without reading the session again and leads to the next page', async () => {
    const a = await onPageOne();
    // The positive control: showing the page again reads the session, and the hook counts it.
    assert.equal((await sessionReads(() => a.client.get(a.path))).reads, 1, 'the GET read the session');
    const { result, reads } = await sessionReads(() => a.client.post(a.path, a.fields('4')));
    assert.equal(result.status, 303);
    assert.equal(result.location, `/anonymous/analyse/${a.id}/questions/2`);
    assert.equal(reads, 0);
    const stored = await storedValues(a.id);
    assert.equal(stored.length, itemNames((await a.client.get(a.path)).html).length);
    assert.ok(stored.every((v) => v === 4));
  });

  test('a second post of the same page reads the session again: each shown page serves one post', async () => {
    const a = await onPageOne();
    assert.equal((await a.client.post(a.path, a.fields('4'))).status, 303);
    const { result, reads } = await sessionReads(() => a.client.post(a.path, a.fields('2')));
    assert.equal(result.location, `/anonymous/analyse/${a.id}/questions/2`);
    assert.equal(reads, 1);
    assert.ok((await storedValues(a.id)).every((v) => v === 2));
  });

  test('a post whose assessment was cancelled after its page was shown saves nothing and shows the closed link', async () => {
    const a = await onPageOne();
    const cancelled = await request(`${server.url}/api/anonymous/assessment/${a.id}`, { method: 'DELETE', headers: authHeaders(creds) });
    assert.equal(cancelled.status, 200);
    const { result, reads } = await sessionReads(() => a.client.post(a.path, a.fields('4')));
    assert.equal(result.status, 410);
    assert.equal(reads, 1);
    assert.deepEqual(await storedValues(a.id), []);
  });

  test('a post whose assessment another save moved on after its page was shown reads the session afresh, then saves', async () => {
    const a = await onPageOne();
    const row = (await findAssessment(store, a.id))!;
    const instrument = server.running.deps.instruments.get(row.assessment_type)!;
    // Another device saves pages 1 and 2 without going through this process's kept session.
    const two = new Map([...pageItems(instrument, 1), ...pageItems(instrument, 2)].map((item) => [item.id, 1]));
    assert.equal(await saveAnswers(store, a.id, 2, two, row), 'saved');
    const { result, reads } = await sessionReads(() => a.client.post(a.path, a.fields('5')));
    assert.equal(result.location, `/anonymous/analyse/${a.id}/questions/2`);
    assert.equal(reads, 1);
    const stored = await storedValues(a.id);
    assert.equal(stored.length, two.size);
    assert.equal(stored.filter((v) => v === 5).length, pageItems(instrument, 1).length, "this post's answers replace page 1's");
  });

  test('a post with an unanswered item is shown again from a fresh read', async () => {
    const a = await onPageOne();
    const fields = a.fields('3');
    delete fields[itemNames((await a.client.get(a.path)).html)[0]!];
    // The GET just above kept the page's session again; the post still reads afresh.
    const { result, reads } = await sessionReads(() => a.client.post(a.path, fields));
    assert.equal(result.status, 400);
    assert.equal(reads, 1);
  });

  test("an erasure forgets the candidate's kept session at once", async () => {
    const a = await onPageOne();
    const kept = recentSessions(store);
    const before = kept.size;
    assert.ok(before >= 1);
    const erased = await request(`${server.url}/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`, {
      method: 'DELETE',
      headers: authHeaders(creds),
    });
    assert.equal(erased.status, 200, erased.text);
    assert.equal(kept.size, before - 1);
    const { result } = await sessionReads(() => a.client.post(a.path, a.fields('4')));
    assert.equal(result.status, 404);
  });
});

describe('recent sessions, bounded', () => {
  const session = (id: string, answers: number): Session =>
    ({
      assessment: { analysis_id: id },
      candidate: { external_id: `ext-${id}` },
      answers: new Map(Array.from({ length: answers }, (_, i) => [`i${i}`, 1])),
      portal: {},
    }) as unknown as Session;

  test(`keeps at most ${RECENT_SESSIONS_MAX} sessions, the most recently shown, however few their answers`, () => {
    const kept = new RecentSessions();
    for (let i = 0; i <= RECENT_SESSIONS_MAX; i++) kept.remember(session(`s${i}`, 0));
    assert.equal(kept.size, RECENT_SESSIONS_MAX);
    assert.equal(kept.take('s0'), undefined);
    assert.equal(kept.take(`s${RECENT_SESSIONS_MAX}`)?.assessment.analysis_id, `s${RECENT_SESSIONS_MAX}`);
  });

  test(`keeps at most ${RECENT_SESSION_ANSWERS} answers in all`, () => {
    const kept = new RecentSessions();
    const perSession = 312;
    const fit = Math.floor(RECENT_SESSION_ANSWERS / (perSession + 1));
    for (let i = 0; i < fit + 10; i++) kept.remember(session(`s${i}`, perSession));
    assert.ok(kept.size <= fit, `${kept.size} sessions of ${perSession} answers kept`);
    assert.ok(kept.size >= fit - 1, `${kept.size} sessions of ${perSession} answers kept, ${fit} fit`);
  });
});
