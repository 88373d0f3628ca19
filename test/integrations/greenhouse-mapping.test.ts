import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { externalIdFor, metadata, partnerStatus } from '../../src/integrations/greenhouse/mapping.js';
import { nextAttemptAt, RETRY_WINDOW_MS } from '../../src/webhooks/retry.js';
import type { Result } from '../../src/measurement/result.js';
import type { Instrument } from '../../src/measurement/instruments/types.js';

const instrument = {
  code: 'TMA170' as const,
  name: { en: 'Motivation', nl: 'Motivatie' },
  scales: [
    { id: 'achievement', number: 1 },
    { id: 'autonomy', number: 2 },
  ] as Instrument['scales'],
};
const scale = (id: number, name: string, sten: number | undefined) => ({ id, code: name, name, description: '', raw: 3, sten, percentile: undefined });
const normed: Result = {
  scales: [scale(1, 'Achievement', 7), scale(2, 'Autonomy', 3)],
  competences: [],
  consistency: undefined,
  flags: [],
  fairness: [],
  normGroup: { id: 'g', name: 'Group', illustrative: false, sampleSize: 250, table: { scales: {}, competences: {} } } as unknown as Result['normGroup'],
};

describe('Greenhouse mapping (pure)', () => {
  test('the ExternalId is the same for one person across applications, differs per person and per tenant', () => {
    const a = externalIdFor('t1', 'https://app.greenhouse.io/people/17681532?application_id=26234709');
    assert.equal(a, externalIdFor('t1', 'https://app.greenhouse.io/people/17681532?application_id=1'));
    assert.notEqual(a, externalIdFor('t1', 'https://app.greenhouse.io/people/17681533?application_id=26234709'));
    assert.notEqual(a, externalIdFor('t2', 'https://app.greenhouse.io/people/17681532?application_id=26234709'));
    assert.match(a!, /^gh-[0-9a-f]{40}$/);
    assert.equal(externalIdFor('t1', 'not a url'), undefined);
  });

  test('only a completed test is "complete"', () => {
    assert.equal(partnerStatus('Completed'), 'complete');
    for (const s of ['Created', 'Started', 'Cancelled', 'Expired'] as const) assert.notEqual(partnerStatus(s), 'complete');
  });

  test('metadata: each sten when released and normed; no score while withheld or before completion', () => {
    const done = { instrument, startedAt: 's', completedAt: 'c', withheld: false, result: normed };
    const m = metadata(done);
    assert.equal(m['Achievement (sten)'], 7);
    assert.equal(m['Autonomy (sten)'], 3);
    const kept = metadata({ ...done, withheld: true });
    assert.equal(
      Object.values(kept).some((v) => typeof v === 'number'),
      false,
    );
    assert.match(String(kept.Results), /Withheld/);
    const open = metadata({ ...done, completedAt: null, result: undefined });
    assert.equal(
      Object.keys(open).some((k) => k.endsWith('(sten)')),
      false,
    );
    for (const v of [...Object.values(m), ...Object.values(kept)]) assert.ok(v === null || ['string', 'number', 'boolean'].includes(typeof v));
  });

  test('metadata: a group without reliability gives each sten "precision unknown" and no alpha; an illustrative group gives no number at all', () => {
    const m = metadata({ instrument, startedAt: 's', completedAt: 'c', withheld: false, result: normed });
    assert.equal(m['Norm Group N'], 250);
    assert.match(String(m['Achievement (sten 90% band)']), /^precision unknown/);
    assert.equal(m['Achievement (alpha)'], undefined);
    const simulated = { ...normed, normGroup: { ...normed.normGroup!, illustrative: true } };
    const shown = metadata({ instrument, startedAt: 's', completedAt: 'c', withheld: false, result: simulated });
    assert.deepEqual(
      Object.values(shown).filter((v) => typeof v === 'number'),
      [],
    );
    assert.match(String(shown.Results), /illustrative example built from simulated answers/);
    assert.match(String(shown['Norm Group']), /illustrative/);
  });

  test('retries double from the base, stop growing at six hours, and end seven days after the first attempt', () => {
    const first = '2026-01-01T00:00:00.000Z';
    const t0 = Date.parse(first);
    assert.equal(nextAttemptAt(1, first, t0, 60_000), new Date(t0 + 60_000).toISOString());
    assert.equal(nextAttemptAt(3, first, t0, 60_000), new Date(t0 + 240_000).toISOString());
    assert.equal(nextAttemptAt(30, first, t0, 60_000), new Date(t0 + 6 * 3_600_000).toISOString());
    assert.equal(nextAttemptAt(30, first, t0 + RETRY_WINDOW_MS - 3_600_000, 60_000), undefined);
  });
});
