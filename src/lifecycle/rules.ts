import { DomainError } from '../domain/errors.js';

import type { LifecycleStatus } from '../domain/status.js';

export type { LifecycleStatus };

interface Lifecycle {
  status: 'Created' | 'Started' | 'Completed' | 'Cancelled';
  expires_at: string | null;
}

/** Completed and cancelled are final; an open assessment past its expiry is expired. */
export function effectiveStatus(a: Lifecycle, now = Date.now()): LifecycleStatus {
  if (a.status === 'Completed' || a.status === 'Cancelled') return a.status;
  return a.expires_at !== null && Date.parse(a.expires_at) <= now ? 'Expired' : a.status;
}

/** True while the candidate may still start or continue it. */
export const isOpen = (a: Lifecycle, now = Date.now()) => {
  const s = effectiveStatus(a, now);
  return s === 'Created' || s === 'Started';
};

const MAX_DAYS = 3_650;

/**
 * When a new assessment expires: the caller's ExpiresAt (an ISO-8601 date-time in the future, at
 * most ten years ahead), else `defaultDays` after creation. `field` names it in the asking door's words.
 */
export function expiryFor(requested: string | undefined, defaultDays: number, now = Date.now(), field = 'ExpiresAt'): string {
  if (requested === undefined) return new Date(now + defaultDays * 86_400_000).toISOString();
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(requested) ? Date.parse(requested) : NaN;
  if (Number.isNaN(at)) {
    throw new DomainError('ValidationError', `${field} must be an ISO-8601 date-time with a time zone, e.g. 2026-12-31T23:59:00Z`, { field, rule: 'dateTime' });
  }
  if (at <= now) throw new DomainError('ValidationError', `${field} must be in the future`, { field, rule: 'future' });
  if (at > now + MAX_DAYS * 86_400_000) throw new DomainError('ValidationError', `${field} must be within ten years`, { field, rule: 'maximum' });
  return new Date(at).toISOString();
}

type Closable = Lifecycle & { completed_at: string | null; cancelled_at: string | null };

/** When an assessment closes or closed: completion, cancellation, or its expiry; null for an open one that never expires. */
function closesAt(a: Closable): string | null {
  if (a.status === 'Completed') return a.completed_at;
  if (a.status === 'Cancelled') return a.cancelled_at;
  return a.expires_at;
}

/**
 * When a candidate's personal data falls due for automatic erasure: `retentionDays` after the
 * last of their assessments closes (completed, cancelled, or expired), or after they were
 * created when they have none. Null while an assessment is open and never expires.
 */
export function erasureDue(candidateCreatedAt: string, assessments: readonly Closable[], retentionDays: number): number | null {
  let last = Date.parse(candidateCreatedAt);
  for (const a of assessments) {
    const end = closesAt(a);
    if (end === null) return null;
    last = Math.max(last, Date.parse(end));
  }
  return last + retentionDays * 86_400_000;
}

export function retentionDue(candidateCreatedAt: string, assessments: readonly Closable[], retentionDays: number, now = Date.now()): boolean {
  const due = erasureDue(candidateCreatedAt, assessments, retentionDays);
  return due !== null && due <= now;
}
