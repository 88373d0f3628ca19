import type { Deps } from '../../src/app-types.js';

// The dispatcher's or the mailer's: both wake, and count their looks and what is in flight.
type Webhooks = Pick<Deps['webhooks'], 'wake'> & { activity: { passes: number; inFlight: number } };

const turn = () => new Promise((r) => setTimeout(r, 10));

/**
 * Waits until the dispatcher has finished `passes` looks at the outbox that began after this
 * call, waking it as its poll would; a check that something was not sent comes after this. The
 * first pass to end may have begun before the call, so the default is two.
 */
export async function dispatcherLooked(webhooks: Webhooks, passes = 2, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  const start = webhooks.activity.passes;
  while (webhooks.activity.passes < start + passes) {
    if (Date.now() > deadline) throw new Error(`the dispatcher finished ${webhooks.activity.passes - start} of ${passes} looks at the outbox within ${ms} ms`);
    webhooks.wake();
    await turn();
  }
}

/**
 * Waits until the dispatcher has nothing in flight and, since, has looked at the outbox twice
 * with still nothing in flight: anything it would send again or late has had its chance to go
 * out (a receiver records a request before it answers, and an attempt ends after the answer).
 */
export async function dispatcherQuiet(webhooks: Webhooks, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    while (webhooks.activity.inFlight > 0) {
      if (Date.now() > deadline) throw new Error(`the dispatcher still had ${webhooks.activity.inFlight} attempt(s) in flight after ${ms} ms`);
      await turn();
    }
    await dispatcherLooked(webhooks, 2, Math.max(1, deadline - Date.now()));
    if (webhooks.activity.inFlight === 0) return;
  }
}

/** Resolves with `promise`, or fails after `ms` saying what did not happen. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
