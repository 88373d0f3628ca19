import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { MAX_RETRY_DELAY_MS, nextAttemptAt, RETRY_WINDOW_MS } from '../../src/webhooks/retry.js';

const HOUR = 3_600_000;
const first = '2026-01-01T00:00:00.000Z';
const t0 = Date.parse(first);
const iso = (ms: number) => new Date(ms).toISOString();

describe('when a patch-style completion call is tried again', () => {
  test('the window is seven days and the longest wait six hours', () => {
    assert.equal(RETRY_WINDOW_MS, 7 * 24 * HOUR);
    assert.equal(MAX_RETRY_DELAY_MS, 6 * HOUR);
  });

  test('the wait doubles from the base with each attempt made: 1, 1, 2, 4, 8 times the base', () => {
    const waits = [0, 1, 2, 3, 4].map((n) => Date.parse(nextAttemptAt(n, first, t0, 1_000)!) - t0);
    assert.deepEqual(waits, [1_000, 1_000, 2_000, 4_000, 8_000]);
    // A negative count (none) waits the base too.
    assert.equal(nextAttemptAt(-3, first, t0, 1_000), iso(t0 + 1_000));
  });

  test('from now, not from the first attempt', () => {
    assert.equal(nextAttemptAt(2, first, t0 + 5 * HOUR, 60_000), iso(t0 + 5 * HOUR + 120_000));
  });

  test('the wait stops growing at six hours, however many attempts, and whatever the base', () => {
    assert.equal(nextAttemptAt(16, first, t0, 1_000), iso(t0 + 6 * HOUR), '2^15 s is past six hours');
    assert.equal(nextAttemptAt(10_000, first, t0, 1), iso(t0 + 6 * HOUR));
    assert.equal(nextAttemptAt(1, first, t0, 10 * HOUR), iso(t0 + 6 * HOUR));
  });

  test('a base of zero retries at once, even after very many attempts', () => {
    // 0 × 2^10000 would be 0 × Infinity: the exponent is capped, so the wait is a number.
    assert.equal(nextAttemptAt(10_000, first, t0, 0), iso(t0));
  });

  test('an attempt due exactly at the end of the window is made; one a millisecond past it is not', () => {
    const end = t0 + RETRY_WINDOW_MS;
    assert.equal(nextAttemptAt(1, first, end - 1_000, 1_000), iso(end));
    assert.equal(nextAttemptAt(1, first, end - 999, 1_000), undefined);
  });
});
