import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { effectiveStatus, erasureDue, expiryFor, retentionDue } from '../../src/lifecycle/rules.js';

const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();
const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('the lifecycle of an assessment', () => {
  test('open past its expiry is expired; completed and cancelled stay what they are', () => {
    assert.equal(effectiveStatus({ status: 'Started', expires_at: at(NOW - 1) }, NOW), 'Expired');
    assert.equal(effectiveStatus({ status: 'Created', expires_at: at(NOW + 1) }, NOW), 'Created');
    assert.equal(effectiveStatus({ status: 'Started', expires_at: null }, NOW), 'Started');
    assert.equal(effectiveStatus({ status: 'Completed', expires_at: at(NOW - DAY) }, NOW), 'Completed');
    assert.equal(effectiveStatus({ status: 'Cancelled', expires_at: at(NOW - DAY) }, NOW), 'Cancelled');
  });

  test('the expiry: given, or the default; never in the past or beyond ten years', () => {
    assert.equal(expiryFor(undefined, 90, NOW), at(NOW + 90 * DAY));
    assert.equal(expiryFor('2026-12-01T10:00:00+01:00', 90, NOW), '2026-12-01T09:00:00.000Z');
    for (const bad of ['2026-11-23T11:00:00Z', '2026-12-01', 'soon', '2040-01-01T00:00:00Z']) assert.throws(() => expiryFor(bad, 90, NOW), bad);
  });

  test('erasure falls due the retention after the last assessment closed, and never while one is open without expiry', () => {
    const created = at(NOW - 400 * DAY);
    const done = { status: 'Completed' as const, expires_at: at(NOW + DAY), completed_at: at(NOW - 100 * DAY), cancelled_at: null };
    const cancelled = { status: 'Cancelled' as const, expires_at: null, completed_at: null, cancelled_at: at(NOW - 20 * DAY) };
    const open = { status: 'Started' as const, expires_at: at(NOW + 5 * DAY), completed_at: null, cancelled_at: null };
    assert.equal(erasureDue(created, [done, cancelled], 30), NOW + 10 * DAY);
    assert.equal(retentionDue(created, [done, cancelled], 30, NOW), false);
    assert.equal(retentionDue(created, [done, cancelled], 20, NOW), true);
    assert.equal(erasureDue(created, [done, open], 30), NOW + 35 * DAY, 'from when the open one expires');
    assert.equal(erasureDue(created, [{ ...open, expires_at: null }], 30), null);
    assert.equal(retentionDue(created, [], 399, NOW), true, 'a candidate without assessments counts from creation');
  });
});
