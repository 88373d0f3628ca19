import * as nodeTest from 'node:test';

/**
 * node:test's describe and test with a deadline of their own unless they name one: test/run.ts
 * gives every test --test-timeout, but a plain `node --test FILE` has none, and a hang would never end.
 */
export const DEADLINE_MS = 300_000;

function withDeadline<F extends (...args: any[]) => unknown>(register: F): F {
  return ((name: unknown, options?: unknown, fn?: unknown) => {
    if (typeof options === 'function' || options === undefined) return register(name, { timeout: DEADLINE_MS }, options);
    return register(name, { timeout: DEADLINE_MS, ...(options as object) }, fn);
  }) as F;
}

export const describe = withDeadline(nodeTest.describe);
export const test = withDeadline(nodeTest.test);
