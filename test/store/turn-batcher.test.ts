import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TurnBatcher } from '../../src/store/turn-batcher.js';

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
    const b = new TurnBatcher(async (items: number[]) => {
      sizes.push(items.length);
      return items;
    }, 4);
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
    assert.deepEqual(outcomes.map((o) => o.status), ['rejected', 'rejected']);
    fail = false;
    assert.equal(await b.submit('c'), 'c');
  });
});
