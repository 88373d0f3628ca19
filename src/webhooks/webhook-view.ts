import type { AttemptRow } from './outbox-store.js';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One attempt as the delivery log shows it: the reason without internal addresses (the client leaves them out). */
export function attemptView(a: AttemptRow) {
  return {
    Id: a.id,
    Kind: capitalize(a.kind) as 'Automatic' | 'Manual' | 'Release',
    // A scheduled retry waits, as a pending attempt does: callers see one state for both.
    Status: capitalize(a.status === 'scheduled' ? 'pending' : a.status) as 'Pending' | 'Sending' | 'Delivered' | 'Failed' | 'Unknown',
    CreatedAt: a.created_at,
    AttemptedAt: a.attempted_at,
    DurationMs: a.duration_ms,
    ResponseStatus: a.response_status,
    Error: a.error,
  };
}

/** The webhook as the status lookup shows it: the latest attempt, and how many there were. NotSent before any. */
export function webhookSummary(attempts: { latest: AttemptRow; count: number } | undefined) {
  const a = attempts?.latest;
  return {
    Status: a ? attemptView(a).Status : ('NotSent' as const),
    AttemptedAt: a?.attempted_at ?? null,
    DurationMs: a?.duration_ms ?? null,
    ResponseStatus: a?.response_status ?? null,
    Error: a?.error ?? null,
    Attempts: attempts?.count ?? 0,
  };
}
