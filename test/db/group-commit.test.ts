import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { GroupCommitter } from '../../src/db/group-commit.js';

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
    assert.deepEqual(
      results,
      Array.from({ length: 50 }, (_, i) => i * 2),
    );
    assert.deepEqual(r.batches, [50]);
  });

  test('batches are capped', async () => {
    const r = recorder();
    const gc = new GroupCommitter(r.transact, { maxBatch: 16 });
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
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
  });

  test('no write is acknowledged before a sync that started after its commit has finished', async () => {
    const events: string[] = [];
    const syncs: Array<() => void> = [];
    const gc = new GroupCommitter(
      async <R>(fn: (ctx: null) => Promise<R>) => {
        const out = await fn(null);
        events.push('commit');
        return out;
      },
      {
        eagerBatch: 2,
        // Each sync finishes only when the test says so.
        sync: () =>
          new Promise<void>((resolve) => {
            const n = syncs.length + 1;
            events.push(`sync ${n} start`);
            syncs.push(() => {
              events.push(`sync ${n} end`);
              resolve();
            });
          }),
      },
    );
    const turns = async (n = 5) => {
      for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
    };
    const ack = (v: string) => events.push(`ack ${v}`);
    const first = gc.submit(async () => 'a').then(ack);
    await turns();
    // While sync 1 runs: one write waits; two (the eager batch) are committed at once. Either
    // way sync 1 does not cover them, sync 2 does.
    const second = gc.submit(async () => 'b').then(ack);
    await turns();
    assert.deepEqual(events, ['commit', 'sync 1 start'], 'a lone write waits for the sync');
    const third = gc.submit(async () => 'c').then(ack);
    await turns();
    assert.deepEqual(events, ['commit', 'sync 1 start', 'commit'], 'an eager batch commits during the sync, unacknowledged');
    syncs[0]!();
    await turns();
    syncs[1]!();
    await Promise.all([first, second, third]);
    assert.deepEqual(events, ['commit', 'sync 1 start', 'commit', 'sync 1 end', 'ack a', 'sync 2 start', 'sync 2 end', 'ack b', 'ack c']);
  });

  test('a failed sync rejects the writes it was to make durable', async () => {
    const gc = new GroupCommitter(async <R>(fn: (ctx: null) => Promise<R>) => fn(null), {
      sync: async () => {
        throw Object.assign(new Error('EIO'), { code: 'EIO' });
      },
    });
    await assert.rejects(
      gc.submit(async () => 1),
      /EIO/,
    );
  });

  test('a failed commit rejects every write in it', async () => {
    const r = recorder(() => true);
    const gc = new GroupCommitter(r.transact);
    const outcomes = await Promise.allSettled([gc.submit(async () => 1), gc.submit(async () => 2)]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected'],
    );
  });
});
