import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import fc from 'fast-check';
import type { WaitingTenant } from '../../src/webhooks/outbox-store.js';
import { shareOut, TenantWalk, type WalkRead } from '../../src/webhooks/share.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

describe('sharing webhook places out among tenants', () => {
  test("a freed place goes to a tenant holding none before a slow tenant's older backlog", () => {
    const held = new Map([
      ['slow-a', 31],
      ['slow-b', 32],
    ]);
    const waiting: WaitingTenant[] = [
      { tenantId: 'slow-a', oldest: at(1), waiting: 32 },
      { tenantId: 'slow-b', oldest: at(2), waiting: 32 },
      { tenantId: 'other', oldest: at(50), waiting: 1 },
    ];
    assert.deepEqual(
      shareOut(waiting, (t) => held.get(t) ?? 0, 1, 32),
      { wants: [{ tenantId: 'other', limit: 1 }], short: true },
      'slow-a could use one more',
    );
    assert.deepEqual(
      shareOut(waiting, (t) => held.get(t) ?? 0, 3, 32),
      {
        wants: [
          { tenantId: 'other', limit: 1 },
          { tenantId: 'slow-a', limit: 1 },
        ],
        short: false,
      },
      'slow-b holds its share',
    );
    assert.deepEqual(
      shareOut(waiting, (t) => held.get(t) ?? 0, 0, 32),
      { wants: [], short: true },
      'with no place free, tenants under their share wait short',
    );
  });

  test('among tenants holding as many places, the one waiting longest goes first; none is given more than it has waiting', () => {
    const waiting: WaitingTenant[] = [
      { tenantId: 'b', oldest: at(5), waiting: 3 },
      { tenantId: 'a', oldest: at(9), waiting: 40 },
    ];
    assert.deepEqual(
      shareOut(waiting, () => 0, 10, 32),
      {
        wants: [
          { tenantId: 'b', limit: 3 },
          { tenantId: 'a', limit: 7 },
        ],
        short: true,
      },
    );
    assert.deepEqual(
      shareOut(waiting, () => 0, 43, 32),
      {
        wants: [
          { tenantId: 'b', limit: 3 },
          { tenantId: 'a', limit: 32 },
        ],
        short: false,
      },
      "a's share, though 40 wait",
    );
  });

  test('for any tenants and places: within the free places and each share, and no tenant served while one holding fewer is left short', () => {
    const tenant = fc.record({ held: fc.integer({ min: 0, max: 32 }), oldest: fc.integer({ min: 0, max: 1000 }), waiting: fc.integer({ min: 1, max: 32 }) });
    fc.assert(
      fc.property(fc.array(tenant, { maxLength: 40 }), fc.integer({ min: 0, max: 64 }), (ts, free) => {
        const waiting = ts.map((t, i) => ({ tenantId: `t${i}`, oldest: at(t.oldest), waiting: t.waiting }));
        const held = (id: string) => ts[Number(id.slice(1))]!.held;
        const { wants, short } = shareOut(waiting, held, free, 32);
        const got = new Map(wants.map((w) => [w.tenantId, w.limit]));
        assert.equal(got.size, wants.length, 'each tenant once');
        assert.ok([...got.values()].reduce((a, b) => a + b, 0) <= free);
        const full = (w: WaitingTenant) => Math.min(w.waiting, 32 - held(w.tenantId));
        for (const w of waiting) {
          const n = got.get(w.tenantId) ?? 0;
          assert.ok(n >= 0 && n <= full(w), `${w.tenantId}: ${n} of at most ${full(w)}`);
          if (got.has(w.tenantId)) assert.ok(n > 0);
        }
        for (const a of waiting) {
          for (const b of waiting) {
            if (held(a.tenantId) < held(b.tenantId) && (got.get(b.tenantId) ?? 0) > 0)
              assert.equal(got.get(a.tenantId) ?? 0, full(a), `${a.tenantId} holds fewer than ${b.tenantId}`);
          }
        }
        // Places are left over only when every tenant got all it could; short says whether one did not.
        if ([...got.values()].reduce((a, b) => a + b, 0) < free) for (const w of waiting) assert.equal(got.get(w.tenantId) ?? 0, full(w));
        assert.equal(
          short,
          waiting.some((w) => (got.get(w.tenantId) ?? 0) < full(w)),
        );
      }),
      { numRuns: 500 },
    );
  });

  test('among tenants holding as many places, the longest waiting goes first whatever order they are read in', () => {
    const tenants: WaitingTenant[] = [
      { tenantId: 'c', oldest: at(30), waiting: 5 },
      { tenantId: 'a', oldest: at(10), waiting: 5 },
      { tenantId: 'b', oldest: at(20), waiting: 5 },
    ];
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ].map((o) => o.map((i) => tenants[i]!));
    for (const waiting of orders) {
      const given = (free: number) => shareOut(waiting, () => 1, free, 32).wants.map((w) => w.tenantId);
      assert.deepEqual(given(1), ['a'], waiting.map((w) => w.tenantId).join());
      assert.deepEqual(given(6), ['a', 'b'], waiting.map((w) => w.tenantId).join());
    }
  });
});

describe('walking the waiting tenants', () => {
  /** The store's walk over a fixed set of waiting tenants, in id order. */
  const reader =
    (ids: string[]): WalkRead =>
    async ({ after, max }) =>
      ids
        .filter((id) => after === undefined || id > after)
        .slice(0, max)
        .map((tenantId) => ({ tenantId, oldest: at(0), waiting: 1 }));
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${String(i).padStart(4, '0')}`);

  test('past its bound a walk goes on after the last tenant seen and wraps round, so every tenant comes up in turn', async () => {
    const all = ids(300);
    const walk = new TenantWalk(reader(all), 256);
    const first = (await walk.next()).map((w) => w.tenantId);
    assert.deepEqual(first, all.slice(0, 256));
    const second = (await walk.next()).map((w) => w.tenantId);
    assert.deepEqual(second, [...all.slice(256), ...all.slice(0, 212)], 'the last 44, then from the first again');
    assert.equal(new Set([...first, ...second]).size, 300, 'two walks see every tenant');
    const third = (await walk.next()).map((w) => w.tenantId);
    assert.deepEqual(third, [...all.slice(212), ...all.slice(0, 168)], 'a walk that wrapped is followed by one from where it stopped');
  });

  test('over many walks past its bound, every tenant is looked at as often as any other, give or take one', async () => {
    const all = ids(300);
    const walk = new TenantWalk(reader(all), 256);
    const seen = new Map<string, number>();
    for (let i = 0; i < 30; i++) for (const w of await walk.next()) seen.set(w.tenantId, (seen.get(w.tenantId) ?? 0) + 1);
    const counts = all.map((id) => seen.get(id) ?? 0);
    assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `${Math.min(...counts)} to ${Math.max(...counts)} walks a tenant`);
  });

  test('under its bound every walk sees every tenant once', async () => {
    const all = ids(40);
    const walk = new TenantWalk(reader(all), 256);
    for (let i = 0; i < 3; i++)
      assert.deepEqual(
        (await walk.next()).map((w) => w.tenantId),
        all,
      );
  });

  /** A reader over a set of waiting tenants that changes between walks, counting its reads. */
  function changing(start: string[]) {
    const state = { ids: start, reads: 0 };
    const read: WalkRead = async (options) => {
      state.reads++;
      return reader(state.ids)(options);
    };
    return { state, read };
  }

  test('a walk that starts from the first and sees fewer than its bound reads once', async () => {
    const { state, read } = changing(ids(5));
    const walk = new TenantWalk(read, 8);
    for (let i = 1; i <= 3; i++) {
      assert.equal((await walk.next()).length, 5);
      assert.equal(state.reads, i);
    }
  });

  test('a walk that wraps round shows each tenant once, and after it wrapped short the next starts from the first', async () => {
    const { state, read } = changing(['a', 'b', 'c', 'd']);
    const walk = new TenantWalk(read, 3);
    assert.deepEqual(
      (await walk.next()).map((w) => w.tenantId),
      ['a', 'b', 'c'],
    );
    state.ids = ['a', 'd'];
    // After c: d; from the first again: a, and d, which it has already.
    assert.deepEqual(
      (await walk.next()).map((w) => w.tenantId),
      ['d', 'a'],
    );
    const before = state.reads;
    assert.deepEqual(
      (await walk.next()).map((w) => w.tenantId),
      ['a', 'd'],
    );
    assert.equal(state.reads - before, 1);
  });
});
