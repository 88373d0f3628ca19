import assert from 'node:assert/strict';
import { describe, test } from './helpers/deadline.js';
import { DomainError } from '../src/domain/errors.js';
import { Threads } from '../src/platform/threads.js';

const WORKER = new URL('./helpers/busy-worker.js', import.meta.url);

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
});
