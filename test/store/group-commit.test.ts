import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GroupCommitter } from '../../src/store/group-commit.js';

/** A fake transaction runner that records batches, so batching is observable. */
function recorder(failWhen: (ops: number) => boolean = () => false) {
  const batches: number[] = [];
  let current = 0;
  const transact = async <R>(fn: (ctx: { note(): void }) => Promise<R>): Promise<R> => {
    current = 0;
    const result = await fn({ note: () => current++ });
    batches.push(current);
    if (failWhen(current)) throw new Error('commit failed');
    return result;
  };
  return { batches, transact };
}

describe('GroupCommitter', () => {
  test('writes submitted together share one transaction, and each gets its own result', async () => {
    const r = recorder();
    const gc = new GroupCommitter(r.transact);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => gc.submit(async (ctx) => (ctx.note(), i * 2))));
    assert.deepEqual(results, Array.from({ length: 50 }, (_, i) => i * 2));
    assert.deepEqual(r.batches, [50]);
  });

  test('batches are capped', async () => {
    const r = recorder();
    const gc = new GroupCommitter(r.transact, 16);
    await Promise.all(Array.from({ length: 40 }, () => gc.submit(async (ctx) => ctx.note())));
    assert.deepEqual(r.batches, [16, 16, 8]);
  });

  test('one failing write fails alone: its neighbours are retried on their own and succeed', async () => {
    const r = recorder();
    const gc = new GroupCommitter(r.transact);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        gc.submit(async (ctx) => {
          ctx.note();
          if (i === 2) throw new Error('bad write');
          return i;
        }),
      ),
    );
    assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  });

  test('a failed commit rejects every write in it', async () => {
    const r = recorder(() => true);
    const gc = new GroupCommitter(r.transact);
    const outcomes = await Promise.allSettled([gc.submit(async () => 1), gc.submit(async () => 2)]);
    assert.deepEqual(outcomes.map((o) => o.status), ['rejected', 'rejected']);
  });
});
