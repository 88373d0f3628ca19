import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { Closers } from '../../src/platform/closers.js';

describe('Closers: the one list of what a start opened', () => {
  test('closes the doors, then the workers, then the engines, each stage newest first, each close once', async () => {
    const closed: string[] = [];
    const closers = new Closers();
    // Added in the order a start opens them, which is not the order they must close in.
    for (const [stage, name] of [
      ['engines', 'store'],
      ['engines', 'threads'],
      ['doors', 'server'],
      ['workers', 'dispatcher'],
      ['workers', 'mailer'],
      ['doors', 'metrics'],
    ] as const) {
      closers.add(stage, async () => void closed.push(name));
    }
    await closers.closeAll();
    assert.deepEqual(closed, ['metrics', 'server', 'mailer', 'dispatcher', 'threads', 'store']);
    await closers.closeAll();
    assert.equal(closed.length, 6, 'a second closeAll closes nothing again');
  });

  test('a close that throws stops none after it; its error comes out at the end, several as one AggregateError', async () => {
    const closed: string[] = [];
    const one = new Closers();
    one.add('engines', () => void closed.push('store'));
    one.add('doors', () => {
      throw new Error('server would not close');
    });
    await assert.rejects(one.closeAll(), { message: 'server would not close' });
    assert.deepEqual(closed, ['store']);

    const two = new Closers();
    two.add('engines', () => Promise.reject(new Error('store')));
    two.add('workers', () => Promise.reject(new Error('mailer')));
    two.add('doors', () => void closed.push('server'));
    await assert.rejects(two.closeAll(), (err: AggregateError) => {
      assert.deepEqual(
        err.errors.map((e: Error) => e.message),
        ['mailer', 'store'],
      );
      return true;
    });
    assert.deepEqual(closed, ['store', 'server']);
  });
});
