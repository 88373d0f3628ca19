import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DomainError } from '../../src/domain/errors.js';
import { Turns } from '../../src/reports/turns.js';

/** A job that holds the thread for `ms`, as a PDF render does, and records when it ran. */
function blocking(events: string[], name: string, ms: number) {
  return async () => {
    events.push(`${name} start`);
    const end = Date.now() + ms;
    while (Date.now() < end);
    events.push(`${name} end`);
    return name;
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Turns', { timeout: 10_000 }, () => {
  test('a job asked for after another ended, in the same event-loop phase, starts after timers have run', async () => {
    const turns = new Turns(4);
    const events: string[] = [];
    // Two callbacks of one check phase stand for two sockets read in one poll phase.
    const second = new Promise<string>((resolve, reject) => {
      setImmediate(() => {
        setTimeout(() => events.push('timer'), 0);
        void turns.run(blocking(events, 'a', 20));
      });
      setImmediate(() => turns.run(blocking(events, 'b', 1)).then(resolve, reject));
    });
    assert.equal(await second, 'b');
    assert.ok(events.indexOf('a end') < events.indexOf('b start'), events.join(', '));
    const timer = events.indexOf('timer');
    assert.ok(timer !== -1 && timer < events.indexOf('b start'), `the timer waited for the second job: ${events.join(', ')}`);
  });

  test('jobs asked for together run one at a time, in order, and a failed job does not stop the next', async () => {
    const turns = new Turns(4);
    const events: string[] = [];
    const failing = async () => {
      events.push('x start');
      throw new Error('render failed');
    };
    const outcomes = await Promise.allSettled([turns.run(blocking(events, 'a', 5)), turns.run(failing), turns.run(blocking(events, 'b', 5))]);
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
      ['a', 'render failed', 'b'],
    );
    assert.deepEqual(events, ['a start', 'a end', 'x start', 'b start', 'b end']);
  });

  test('past the line of waiters a job is refused with ServiceUnavailable and a retry time, and the line then moves on', async () => {
    const turns = new Turns(2);
    const events: string[] = [];
    const accepted = [turns.run(blocking(events, 'a', 5)), turns.run(blocking(events, 'b', 1)), turns.run(blocking(events, 'c', 1))];
    await assert.rejects(turns.run(blocking(events, 'refused', 1)), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, 'ServiceUnavailable');
      assert.ok(Number(e.details.retryAfterSeconds) > 0);
      return true;
    });
    assert.deepEqual(await Promise.all(accepted), ['a', 'b', 'c']);
    assert.ok(!events.includes('refused start'));
    await settle();
    assert.equal(await turns.run(blocking(events, 'd', 1)), 'd');
  });
});
