import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient } from '../helpers/http.js';
import type { Store } from '../../src/db/database.js';
import {
  countConsoleStatuses,
  listConsolePage,
  type ConsoleFilter,
  type ConsolePageRequest,
  type ConsoleSort,
} from '../../src/assessments/console-list-store.js';

// Ten candidates of tenant A, made in this order, one assessment each; last names sort as listed here.
const PEOPLE = [
  ['Anna', 'Aalders', 0],
  ['Bram', 'Bakker', 0],
  ['Cor', 'Claes', 1],
  ['Daan', 'Dekker', 0],
  ['Eva', 'Evers', 0],
  ['Fenna', 'Fransen', 1],
  ['Gijs', 'Groen', 0],
  ['Hanna', 'Hoek', 0],
  ['Ilse', 'Jansen', 0],
  ['Joop', 'Kok', 0],
] as const;
const HOUR = 3_600_000;

interface Made {
  id: string;
  externalId: string;
  first: string;
  last: string;
  type: number;
}

suiteOnEachDatabase("the console's candidate list (store)", { tenant: false }, ({ server }) => {
  let store: Store;
  let tenantA: string;
  let tenantB: string;
  const made: Made[] = [];
  let otherId: string;
  // A clock two hours on: Expired is derived from expires_at, and one assessment expires in one hour.
  const later = () => new Date(Date.now() + 2 * HOUR).toISOString();
  const status: Record<string, string> = {};

  before(async () => {
    store = server.running.deps.store;
    const a = await server.tenant('console-a');
    const b = await server.tenant('console-b');
    tenantA = a.tenantId;
    tenantB = b.tenantId;
    for (const [i, [first, last, type]] of PEOPLE.entries()) {
      const fields = { FirstName: first, LastName: last, Email: `${first.toLowerCase()}.${last.toLowerCase()}@example.test` };
      const expires = i === 3 ? { ExpiresAt: new Date(Date.now() + HOUR).toISOString() } : {};
      const m = await newAssessment(server.url, a, { AssessmentType: type, ...expires }, fields);
      made.push({ id: m.id, externalId: m.externalId, first, last, type });
    }
    // Another tenant with a namesake of Bakker: never in A's list.
    otherId = (await newAssessment(server.url, b, {}, { FirstName: 'Bram', LastName: 'Bakker', Email: 'bram.bakker@example.test' })).id;
    // Completed: Bakker, Evers, Hoek (in this order); cancelled: Groen; expired at the later clock: Dekker.
    for (const i of [1, 4, 7]) {
      const p = made[i]!;
      await completeViaForms(new FormClient(server.url), p.id, { details: { FirstName: p.first, Preposition: '', LastName: p.last, Email: 'x@example.test' } });
    }
    assert.equal((await apiClient(server.url, a).delete(`/api/anonymous/assessment/${made[6]!.id}`)).status, 200);
    // One completed assessment flagged, one not, whatever completion found (the flag's own rules are tested in measurement/).
    await store.db.updateTable('assessments').set({ integrity_flags: '["Speeding"]' }).where('analysis_id', '=', made[4]!.id).execute();
    await store.db.updateTable('assessments').set({ integrity_flags: '[]' }).where('analysis_id', 'in', [made[1]!.id, made[7]!.id]).execute();
    for (const [i, m] of made.entries()) {
      status[m.id] = [1, 4, 7].includes(i) ? 'Completed' : i === 6 ? 'Cancelled' : i === 3 ? 'Expired' : 'Created';
    }
  });

  const list = async (filter: ConsoleFilter, page: Partial<ConsolePageRequest> = {}, tenant = tenantA) =>
    listConsolePage(store, tenant, filter, { sort: 'invited', descending: false, limit: 100, ...page }, later());
  const ids = (rows: Array<{ assessment: { analysis_id: string } }>) => rows.map((r) => r.assessment.analysis_id);
  const idsOf = (indexes: number[]) => indexes.map((i) => made[i]!.id);

  test("tenant A's list holds its ten assessments and never tenant B's, whose list holds its own", async () => {
    const a = await list({});
    assert.deepEqual(ids(a.rows), idsOf([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert.ok(!ids(a.rows).includes(otherId));
    assert.deepEqual(ids((await list({}, {}, tenantB)).rows), [otherId]);
    // A search both tenants' candidates match finds A's alone.
    assert.deepEqual(ids((await list({ search: 'bakker' })).rows), idsOf([1]));
    const countsA = await countConsoleStatuses(store, tenantA, {}, later());
    assert.equal(
      Object.values(countsA).reduce((n, x) => n + x, 0),
      10,
    );
  });

  test("another tenant's AnalysisId as a cursor is refused like an unknown one", async () => {
    await assert.rejects(list({}, { after: otherId }), /no longer in this list/);
    await assert.rejects(list({}, { after: 'no-such-assessment' }), /no longer in this list/);
  });

  test('each row carries its name, ExternalId, instrument, status and integrity flags', async () => {
    const rows = (await list({})).rows;
    for (const [i, r] of rows.entries()) {
      assert.equal(r.firstName, made[i]!.first);
      assert.equal(r.lastName, made[i]!.last);
      assert.equal(r.assessment.external_id, made[i]!.externalId);
      assert.equal(r.assessment.assessment_type, made[i]!.type);
      assert.equal(r.status, status[made[i]!.id], made[i]!.last);
    }
    assert.deepEqual(rows[4]!.flags, ['Speeding']);
    assert.deepEqual(rows[1]!.flags, []);
  });

  test('search: the start of a first name, last name, e-mail address or ExternalId, in any case', async () => {
    assert.deepEqual(ids((await list({ search: 'FENN' })).rows), idsOf([5]));
    assert.deepEqual(ids((await list({ search: 'dek' })).rows), idsOf([3]));
    assert.deepEqual(ids((await list({ search: 'joop.kok@' })).rows), idsOf([9]));
    assert.deepEqual(ids((await list({ search: made[2]!.externalId })).rows), idsOf([2]));
    // Not a start, and nobody's: nothing.
    assert.deepEqual(ids((await list({ search: 'ekker' })).rows), []);
    assert.deepEqual(ids((await list({ search: 'zzz' })).rows), []);
  });

  test('each status filter lists exactly the assessments with that status', async () => {
    for (const s of ['Created', 'Started', 'Completed', 'Expired', 'Cancelled'] as const) {
      const expected = made.filter((m) => status[m.id] === s).map((m) => m.id);
      assert.deepEqual(ids((await list({ status: s })).rows), expected, s);
    }
    assert.ok(made.some((m) => status[m.id] === 'Expired') && made.some((m) => status[m.id] === 'Completed'));
  });

  test('instrument, invited range and flagged filters', async () => {
    assert.deepEqual(ids((await list({ assessmentType: 1 })).rows), idsOf([2, 5]));
    assert.deepEqual(ids((await list({ assessmentType: 2 })).rows), []);
    const created = (await list({})).rows.map((r) => r.assessment.created_at);
    assert.deepEqual(ids((await list({ invitedFrom: created[7]! })).rows), idsOf([7, 8, 9]));
    assert.deepEqual(ids((await list({ invitedBefore: created[2]! })).rows), idsOf([0, 1]));
    assert.deepEqual(ids((await list({ invitedFrom: created[2]!, invitedBefore: created[4]! })).rows), idsOf([2, 3]));
    assert.deepEqual(ids((await list({ flagged: true })).rows), idsOf([4]));
    assert.deepEqual(ids((await list({ flagged: false })).rows), idsOf([0, 1, 2, 3, 5, 6, 7, 8, 9]));
    assert.deepEqual(ids((await list({ flagged: false, status: 'Completed', search: 'b' })).rows), idsOf([1]));
  });

  test('sorting by invited, completed and name, each way', async () => {
    assert.deepEqual(ids((await list({}, { descending: true })).rows), idsOf([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]));
    assert.deepEqual(ids((await list({}, { sort: 'name' })).rows), idsOf([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert.deepEqual(ids((await list({}, { sort: 'name', descending: true })).rows), idsOf([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]));
    // Completed newest first, then the open and cancelled ones.
    assert.deepEqual(ids((await list({}, { sort: 'completed', descending: true })).rows).slice(0, 3), idsOf([7, 4, 1]));
    assert.deepEqual(ids((await list({}, { sort: 'completed', descending: false })).rows).slice(7), idsOf([1, 4, 7]));
  });

  for (const [sort, descending] of [
    ['invited', true],
    ['name', false],
    ['completed', true],
  ] as Array<[ConsoleSort, boolean]>) {
    test(`pages of four by ${sort}: Next across three pages and Previous back, no row lost or repeated`, async () => {
      const whole = ids((await list({}, { sort, descending })).rows);
      const pages: string[][] = [];
      let after: string | undefined;
      let previousOfLast: string | null = null;
      for (let n = 0; n < 10; n++) {
        const p = await list({}, { sort, descending, limit: 4, after });
        pages.push(ids(p.rows));
        assert.equal(p.previous === null, n === 0, `page ${n + 1} has a Previous link unless it is the first`);
        previousOfLast = p.previous;
        if (p.next === null) break;
        after = p.next;
      }
      assert.deepEqual(
        pages.map((p) => p.length),
        [4, 4, 2],
      );
      assert.deepEqual(pages.flat(), whole);
      // Back from the last page: the same pages in reverse, the first with no Previous link.
      const back: string[][] = [];
      let before = previousOfLast;
      while (before !== null) {
        const p = await list({}, { sort, descending, limit: 4, before });
        back.unshift(ids(p.rows));
        assert.ok(p.next !== null);
        before = p.previous;
      }
      assert.deepEqual(back, pages.slice(0, 2));
    });
  }

  test('the counts per status match the rows each status filter lists, under a search and filters', async () => {
    for (const filter of [{}, { search: 'h' }, { assessmentType: 0 }, { flagged: false }] as ConsoleFilter[]) {
      const counts = await countConsoleStatuses(store, tenantA, filter, later());
      let total = 0;
      for (const s of ['Created', 'Started', 'Completed', 'Expired', 'Cancelled'] as const) {
        const rows = (await list({ ...filter, status: s })).rows.length;
        assert.equal(counts[s], rows, `${JSON.stringify(filter)} ${s}`);
        total += rows;
      }
      assert.equal(total, (await list(filter)).rows.length);
      assert.ok(total > 0, 'each filter here matches some rows');
    }
  });
});
