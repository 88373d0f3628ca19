import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import type { AttemptRow } from '../../src/webhooks/outbox-store.js';
import { attemptView, webhookSummary } from '../../src/webhooks/webhook-view.js';

const row = (fields: Partial<AttemptRow>): AttemptRow =>
  ({
    id: 'att-1',
    analysis_id: 'an-1',
    tenant_id: 't1',
    kind: 'automatic',
    requested_by: null,
    status: 'delivered',
    created_at: '2026-12-01T00:00:00.000Z',
    claimed_at: null,
    claimed_by: null,
    attempted_at: '2026-12-01T00:00:01.000Z',
    duration_ms: 42,
    response_status: 204,
    error: null,
    ...fields,
  }) as AttemptRow;

describe('the delivery log as callers see it', () => {
  test('each kind and status by its spec name; a scheduled retry shows as Pending', () => {
    const kinds = { automatic: 'Automatic', manual: 'Manual', release: 'Release' } as const;
    for (const [kind, shown] of Object.entries(kinds)) assert.equal(attemptView(row({ kind: kind as AttemptRow['kind'] })).Kind, shown);
    const statuses = { scheduled: 'Pending', pending: 'Pending', sending: 'Sending', delivered: 'Delivered', failed: 'Failed', unknown: 'Unknown' } as const;
    for (const [status, shown] of Object.entries(statuses)) assert.equal(attemptView(row({ status: status as AttemptRow['status'] })).Status, shown);
  });

  test("an attempt's fields, the internal ones left out", () => {
    const a = row({ status: 'failed', response_status: 500, error: 'HTTP 500', claimed_by: 'instance-7', requested_by: 'cli' });
    assert.deepEqual(attemptView(a), {
      Id: 'att-1',
      Kind: 'Automatic',
      Status: 'Failed',
      CreatedAt: '2026-12-01T00:00:00.000Z',
      AttemptedAt: '2026-12-01T00:00:01.000Z',
      DurationMs: 42,
      ResponseStatus: 500,
      Error: 'HTTP 500',
    });
  });

  test('the summary: the latest attempt and the count; NotSent and nulls before any', () => {
    assert.deepEqual(webhookSummary(undefined), { Status: 'NotSent', AttemptedAt: null, DurationMs: null, ResponseStatus: null, Error: null, Attempts: 0 });
    assert.deepEqual(webhookSummary({ latest: row({ status: 'scheduled', error: 'timeout', response_status: null }), count: 3 }), {
      Status: 'Pending',
      AttemptedAt: '2026-12-01T00:00:01.000Z',
      DurationMs: 42,
      ResponseStatus: null,
      Error: 'timeout',
      Attempts: 3,
    });
    const pending = webhookSummary({ latest: row({ status: 'pending', attempted_at: null, duration_ms: null, response_status: null }), count: 1 });
    assert.deepEqual([pending.AttemptedAt, pending.DurationMs, pending.ResponseStatus, pending.Attempts], [null, null, null, 1]);
  });
});
