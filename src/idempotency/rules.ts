import { createHash } from 'node:crypto';

/** How long a key is kept, and replayed, after its first request. */
export const KEEP_MS = 24 * 3600 * 1000;
/**
 * How long a claim in flight holds its key: past it, a crashed instance's claim is taken over by the
 * next request with that key. Longer than a create takes on a slow database, by far.
 */
export const LEASE_MS = 60_000;
/** What a request that finds its key in flight is told to wait: a create in flight takes milliseconds. */
export const IN_FLIGHT_RETRY_AFTER_S = 1;

/** A key is kept as its SHA-256: callers put what they like in it, candidates' addresses included. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key, 'latin1').digest('hex');
}

/** A stored key as the claim reads it. */
export interface KeyRow {
  request_hash: string;
  claim_id: string;
  created_at: string;
  lease_until: string;
  response_status: number | null;
  response_body: string | null;
}

export type Verdict = { kind: 'take-over' } | { kind: 'replay'; status: number; body: string } | { kind: 'reused' } | { kind: 'in-flight' };

/**
 * What a request with a key that is already stored gets. An expired key is as good as absent, and so
 * is a claim whose lease lapsed (its instance stopped mid-request): both are taken over.
 */
export function verdictFor(row: KeyRow, requestHash: string, now: number): Verdict {
  if (Date.parse(row.created_at) + KEEP_MS <= now) return { kind: 'take-over' };
  if (row.request_hash !== requestHash) return { kind: 'reused' };
  if (row.response_status !== null) return { kind: 'replay', status: row.response_status, body: row.response_body ?? '' };
  return Date.parse(row.lease_until) > now ? { kind: 'in-flight' } : { kind: 'take-over' };
}

/**
 * Which responses are kept for replay: what the route answered (a 201, or a rule's 4xx). A 429, a
 * 5xx, are passing states of the server, not answers to the request: the claim is released, so a
 * retry runs again.
 */
export function keepsResponse(status: number): boolean {
  return status < 500 && status !== 429;
}
