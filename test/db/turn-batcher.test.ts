import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { TurnBatcher } from '../../src/db/turn-batcher.js';

describe('TurnBatcher', () => {
  test('calls made in one turn share one flush, and each gets its own result', async () => {
    const flushes: number[][] = [];
    const b = new TurnBatcher(async (items: number[]) => {
      flushes.push(items);
      return items.map((x) => x * 10);
    });
    assert.deepEqual(await Promise.all([b.submit(1), b.submit(2), b.submit(3)]), [10, 20, 30]);
    assert.deepEqual(await b.submit(4), 40);
    assert.deepEqual(flushes, [[1, 2, 3], [4]]);
  });

  test('a batch never exceeds its limit', async () => {
    const sizes: number[] = [];
    const b = new TurnBatcher(
      async (items: number[]) => {
        sizes.push(items.length);
        return items;
      },
      { maxBatch: 4 },
    );
    assert.deepEqual(await Promise.all(Array.from({ length: 10 }, (_, i) => b.submit(i))), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(sizes, [4, 4, 2]);
  });

  test('a failed flush fails every call in it, and the next batch goes on', async () => {
    let fail = true;
    const b = new TurnBatcher(async (items: string[]) => {
      if (fail) throw new Error('database down');
      return items;
    });
    const outcomes = await Promise.allSettled([b.submit('a'), b.submit('b')]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected'],
    );
    fail = false;
    assert.equal(await b.submit('c'), 'c');
  });

  test('with its flushes in flight, later calls wait and then go together', async () => {
    const flushes: number[][] = [];
    const gates: Array<() => void> = [];
    const b = new TurnBatcher(
      (items: number[]) => {
        flushes.push(items);
        return new Promise<number[]>((resolve) => gates.push(() => resolve(items.map((x) => -x))));
      },
      { maxInFlight: 1 },
    );
    const first = b.submit(1);
    await new Promise((r) => setImmediate(r));
    const later = [2, 3, 4].map((x) => b.submit(x));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(flushes, [[1]], 'nothing more is flushed while one flush runs');
    gates.shift()!();
    assert.equal(await first, -1);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(flushes, [[1], [2, 3, 4]]);
    gates.shift()!();
    assert.deepEqual(await Promise.all(later), [-2, -3, -4]);
  });

  test('a failed flush frees its place for the next one', async () => {
    let calls = 0;
    const b = new TurnBatcher(
      async (items: number[]) => {
        if (++calls === 1) throw new Error('database down');
        return items;
      },
      { maxInFlight: 1 },
    );
    await assert.rejects(b.submit(1), /database down/);
    assert.equal(await b.submit(2), 2);
  });
});
