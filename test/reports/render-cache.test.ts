import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { RenderCache } from '../../src/reports/render-cache.js';

const source = (fingerprint: string, analysisId = 'a1') => ({ analysisId, fingerprint });

/** A maker that counts how often it ran; it says it rendered rows of `fingerprint`, of candidate `externalId`. */
function maker(value: string, fingerprint = 'f', externalId = 'c1') {
  const made = { count: 0 };
  return {
    made,
    make: async () => {
      made.count++;
      await sleep(5);
      return { value, fingerprint, externalId };
    },
  };
}

describe('render cache', () => {
  test('a render is made once while its fingerprint holds, and again once it changes', async () => {
    const cache = new RenderCache();
    const m = maker('v1', 'f1');
    assert.equal(await cache.get(source('f1'), 'results:en', m.make, (v) => v.length), 'v1');
    assert.equal(await cache.get(source('f1'), 'results:en', m.make, (v) => v.length), 'v1');
    assert.equal(m.made.count, 1);
    const n = maker('v2', 'f2');
    assert.equal(await cache.get(source('f2'), 'results:en', n.make, (v) => v.length), 'v2', 'a changed row is rendered anew');
    assert.equal(n.made.count, 1);
  });

  test('a render made from rows newer than the request read is kept under the newer fingerprint', async () => {
    const cache = new RenderCache();
    const m = maker('newer', 'f2');
    assert.equal(await cache.get(source('f1'), 'x', m.make, (v) => v.length), 'newer');
    assert.equal(await cache.get(source('f2'), 'x', m.make, (v) => v.length), 'newer');
    assert.equal(m.made.count, 1, 'a request that reads the newer rows is served what was kept');
    assert.equal(await cache.get(source('f1'), 'x', m.make, (v) => v.length), 'newer');
    assert.equal(m.made.count, 2, 'the older fingerprint is never served from the entry');
  });

  test('nothing to render (the rows are gone) answers undefined and keeps nothing', async () => {
    const cache = new RenderCache();
    assert.equal(
      await cache.get(
        source('f'),
        'x',
        async () => undefined,
        () => 1,
      ),
      undefined,
    );
    assert.equal(cache.size, 0);
  });

  test('concurrent requests for one render share one making of it', async () => {
    const cache = new RenderCache();
    const m = maker('pdf');
    const all = await Promise.all(Array.from({ length: 10 }, () => cache.get(source('f'), 'pdf:en', m.make, (v) => v.length)));
    assert.deepEqual(all, Array(10).fill('pdf'));
    assert.equal(m.made.count, 1);
  });

  test('a failed making is not kept: the next request makes it again', async () => {
    const cache = new RenderCache();
    await assert.rejects(
      cache.get(
        source('f'),
        'x',
        async () => Promise.reject(new Error('boom')),
        () => 1,
      ),
      /boom/,
    );
    const m = maker('ok');
    assert.equal(await cache.get(source('f'), 'x', m.make, (v) => v.length), 'ok');
    assert.equal(m.made.count, 1);
  });

  test("forgetting a candidate drops every render of their assessments and no one else's", async () => {
    const cache = new RenderCache();
    await cache.get(source('f', 'a1'), 'results:en', maker('1', 'f', 'c1').make, () => 1);
    await cache.get(source('f', 'a1'), 'pdf:en', maker('2', 'f', 'c1').make, () => 1);
    await cache.get(source('f', 'a2'), 'results:en', maker('3', 'f', 'c2').make, () => 1);
    cache.forgetCandidate('c1');
    assert.equal(cache.size, 1);
    const m = maker('again');
    assert.equal(await cache.get(source('f', 'a1'), 'results:en', m.make, () => 1), 'again');
    assert.equal(m.made.count, 1);
  });

  test('a render made while a candidate was forgotten is served but not kept', async () => {
    const cache = new RenderCache();
    const m = maker('shown', 'f', 'c1');
    const pending = cache.get(source('f'), 'x', m.make, () => 1);
    cache.forgetCandidate('c1');
    assert.equal(await pending, 'shown');
    assert.equal(cache.size, 0);
    await cache.get(source('f'), 'x', m.make, () => 1);
    assert.equal(cache.size, 1, 'a making that no forgetting overlapped is kept');
  });

  test("forgetting one candidate does not keep another's render from being kept, and nothing of it is held once no making is going", async () => {
    const cache = new RenderCache();
    const pending = cache.get(source('f'), 'x', maker('theirs', 'f', 'c2').make, () => 1);
    cache.forgetCandidate('c1');
    assert.equal(cache.forgottenHeld, 1, 'held while a making that began before it goes on');
    assert.equal(await pending, 'theirs');
    assert.equal(cache.size, 1);
    assert.equal(cache.forgottenHeld, 0);
    cache.forgetCandidate('c3');
    assert.equal(cache.forgottenHeld, 0, 'nothing is held when no making is going');
  });

  test('entries leave memory when their time is up, unread', async () => {
    const cache = new RenderCache({ ttlMs: 50 });
    await cache.get(source('f'), 'x', maker('v').make, () => 1);
    assert.equal(cache.size, 1);
    const deadline = Date.now() + 5_000;
    while (cache.size > 0 && Date.now() < deadline) await sleep(20);
    assert.equal(cache.size, 0);
  });

  test('past its byte bound the least recently used go first; a render larger than the bound is served, not kept', async () => {
    const cache = new RenderCache({ maxBytes: 100 });
    for (const id of ['a', 'b', 'c']) await cache.get(source('f', id), 'x', maker(id).make, () => 40);
    assert.equal(cache.size, 2);
    assert.equal(await cache.get(source('f', 'big'), 'x', maker('big').make, () => 500), 'big');
    assert.equal(cache.size, 2);
  });
});
