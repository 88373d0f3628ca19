/**
 * Completion calls of style 'patch' (an ATS partner protocol such as Greenhouse's) are retried
 * until the receiver answers 2xx, for up to RETRY_WINDOW_MS after the first attempt was queued.
 * A PATCH that says "completed" may be repeated without harm, so an attempt whose outcome is
 * unknown (the process died mid-attempt) is retried too. Plain webhooks keep their one attempt.
 */
export const RETRY_WINDOW_MS = 7 * 86_400_000;

/** The longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 6 * 3_600_000;

/**
 * When the next attempt falls due after `attempts` attempts made so far, the first queued at
 * `firstQueuedAt`: `baseMs` doubled each time, at most MAX_RETRY_DELAY_MS; undefined once that
 * would fall past the window.
 */
export function nextAttemptAt(attempts: number, firstQueuedAt: string, nowMs: number, baseMs: number): string | undefined {
  const delay = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  const due = nowMs + delay;
  if (due > Date.parse(firstQueuedAt) + RETRY_WINDOW_MS) return undefined;
  return new Date(due).toISOString();
}
