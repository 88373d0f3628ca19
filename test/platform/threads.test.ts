import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { DomainError } from '../../src/domain/errors.js';
import { Threads } from '../../src/platform/threads.js';

const WORKER = new URL('../helpers/busy-worker.js', import.meta.url);

describe('Threads', { timeout: 30_000 }, () => {
  test('under sustained load, jobs finish in the order they were asked for: none waits behind later ones', async () => {
    const threads = new Threads<{ id: number; ms: number }, number>(WORKER, { threads: 1, queue: 100 }, { message: 'busy', retryAfterSeconds: 1 });
    try {
      const finished: number[] = [];
      let next = 0;
      // Ten callers, each asking again as soon as its job is done, as ten connections of PDF requests do.
      const caller = async () => {
        while (next < 80) finished.push(await threads.run({ id: next++, ms: 3 }));
      };
      await Promise.all(Array.from({ length: 10 }, caller));
      assert.deepEqual(
        finished,
        Array.from({ length: 80 }, (_, i) => i),
      );
    } finally {
      await threads.close();
    }
  });

  test('a job that runs its thread out of heap fails, and the next job runs on a new thread', async () => {
    const threads = new Threads<{ id: number; ms: number; leak?: boolean }, number>(
      WORKER,
      { threads: 1, queue: 4 },
      { message: 'busy', retryAfterSeconds: 1 },
      { idleMs: 60_000, resourceLimits: { maxOldGenerationSizeMb: 32 } },
    );
    try {
      await assert.rejects(threads.run({ id: 1, ms: 0, leak: true }), (e: NodeJS.ErrnoException) => e.code === 'ERR_WORKER_OUT_OF_MEMORY');
      assert.equal(await threads.run({ id: 2, ms: 1 }), 2);
    } finally {
      await threads.close();
    }
  });

  test('a job that finds the line full is a 503 with Retry-After, with no line at all too; the others finish', async () => {
    for (const queue of [0, 2]) {
      const threads = new Threads<{ id: number; ms: number }, number>(WORKER, { threads: 1, queue }, { message: 'too many', retryAfterSeconds: 7 });
      try {
        const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, id) => threads.run({ id, ms: 50 })));
        const done = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
        const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        assert.deepEqual(
          done,
          Array.from({ length: 1 + queue }, (_, i) => i),
          `queue ${queue}`,
        );
        assert.equal(refused.length, 6 - done.length);
        for (const e of refused) {
          assert.ok(e instanceof DomainError, String(e));
          assert.equal(e.code, 'ServiceUnavailable');
          assert.equal(e.details.retryAfterSeconds, 7);
        }
      } finally {
        await threads.close();
      }
    }
  });

  const shared = (queue: number) =>
    new Threads<{ id: string; ms: number }, string>(
      WORKER,
      { threads: 1, queue },
      { message: 'full', retryAfterSeconds: 7 },
      { overShare: { message: 'over share', retryAfterSeconds: 3 } },
    );

  test("a freed thread goes to the owners in turn: one that ran least recently first, each owner's jobs in order", async () => {
    const threads = shared(8);
    try {
      const finished: string[] = [];
      const ask = (owner: string, id: string) => threads.run({ id, ms: 5 }, owner).then((r) => finished.push(r));
      // All asked before the first ends: a1 takes the thread, the rest wait.
      const jobs = [ask('A', 'a1'), ask('A', 'a2'), ask('A', 'a3'), ask('A', 'a4'), ask('B', 'b1'), ask('B', 'b2'), ask('C', 'c1')];
      assert.equal(threads.queued, 6);
      await Promise.all(jobs);
      assert.deepEqual(finished, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    } finally {
      await threads.close();
    }
  });

  test('an owner holds at most half of the places the others leave: past it 429, other owners still wait; a full line is 503', async () => {
    const threads = shared(4);
    try {
      const ask = (owner: string, id: string) => threads.run({ id, ms: 20 }, owner);
      const outcomes = await Promise.allSettled([...['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => ask('A', id)), ask('B', 'b1'), ask('C', 'c1'), ask('D', 'd1')]);
      const said = outcomes.map((o) =>
        o.status === 'fulfilled' ? o.value : `${(o.reason as DomainError).code}:${String((o.reason as DomainError).details.retryAfterSeconds)}`,
      );
      // a1 runs; A waits in 2 of the 4 places, B in 1 of the 2 left, C in the last; D finds the line full.
      assert.deepEqual(said, ['a1', 'a2', 'a3', 'TooManyRequests:3', 'TooManyRequests:3', 'b1', 'c1', 'ServiceUnavailable:7']);
    } finally {
      await threads.close();
    }
  });

  test('close refuses the jobs still waiting, and the running one fails', async () => {
    const threads = shared(4);
    const running = threads.run({ id: 'a1', ms: 200 }, 'A');
    const waiting = threads.run({ id: 'b1', ms: 0 }, 'B');
    const refused = Promise.all([assert.rejects(waiting, /closed/), assert.rejects(running)]);
    await threads.close();
    await refused;
  });
});
