import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import fc from 'fast-check';
import { pageCount, pageItems } from '../../src/measurement/instruments/flow.js';
import { consistencyScore } from '../../src/measurement/consistency.js';
import { INTEGRITY, integrityFlags } from '../../src/measurement/integrity.js';
import { tma170 } from '../helpers/content.js';

/** Answers that follow a profile: each scale at one level, negatively keyed items answered the other way. */
function consistent(level: (scale: string) => number): Map<string, number> {
  return new Map(tma170.items.map((item) => [item.id, item.keying === 'negative' ? 6 - level(item.scale) : level(item.scale)]));
}

const slowPages = new Map(Array.from({ length: pageCount(tma170) }, (_, i) => [i + 1, 60_000]));

describe('consistency', () => {
  test('answers that follow a profile score 100; agreeing with everything, or the midpoint everywhere, scores 0', () => {
    assert.equal(
      consistencyScore(
        tma170,
        consistent((s) => (s.length % 5) + 1),
      ),
      100,
    );
    assert.equal(consistencyScore(tma170, new Map(tma170.items.map((i) => [i.id, 5]))), 0, 'every designated pair is keyed both ways');
    assert.equal(consistencyScore(tma170, new Map(tma170.items.map((i) => [i.id, 3]))), 0, 'the midpoint everywhere shows no consistency');
    // A profile that swaps one pair's halves on a few scales is less consistent than a clean one.
    const noisy = consistent((s) => (s.length % 5) + 1);
    for (const [a] of tma170.consistencyPairs!.slice(0, 6)) noisy.set(a, 6 - noisy.get(a)!);
    const score = consistencyScore(tma170, noisy)!;
    assert.ok(score > 0 && score < 100, `${score}`);
  });

  test('lies within 0–100 for any answers; random answering averages about 0, and nine in ten random answer sets fall under the threshold', () => {
    let total = 0;
    let runs = 0;
    let low = 0;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 170, maxLength: 170 }), (values) => {
        const score = consistencyScore(tma170, new Map(tma170.items.map((item, i) => [item.id, values[i]!])))!;
        assert.ok(score >= 0 && score <= 100);
        total += score;
        if (score < INTEGRITY.lowConsistency) low++;
        runs++;
      }),
      // 2000 sets: the share under the threshold (about 0.93) then lies nearly 5 standard errors above 0.9.
      { numRuns: 2000 },
    );
    const mean = total / runs;
    // Negative correlations count as 0, so the mean of max(0, r) lies a little above 0.
    assert.ok(mean > 2 && mean < 15, `mean ${mean}`);
    assert.ok(low / runs > 0.9, `${low} of ${runs} under ${INTEGRITY.lowConsistency}`);
  });
});

describe('integrity flags', () => {
  test('careful, unhurried answers raise none', () => {
    const answers = consistent((s) => (s.length % 5) + 1);
    assert.deepEqual(integrityFlags({ instrument: tma170, answers, pageMs: slowPages, consistency: consistencyScore(tma170, answers) }), []);
  });

  test('the same answer on every statement of most pages is straight-lining', () => {
    const answers = new Map(tma170.items.map((i) => [i.id, 3]));
    assert.deepEqual(integrityFlags({ instrument: tma170, answers, pageMs: slowPages, consistency: 100 }), ['StraightLining']);
  });

  test('under two seconds per statement, at the median page, is speeding', () => {
    const answers = consistent(() => 4);
    const perPage = (secondsPerItem: number) =>
      new Map(Array.from({ length: pageCount(tma170) }, (_, i) => [i + 1, secondsPerItem * 1000 * pageItems(tma170, i + 1).length]));
    assert.ok(integrityFlags({ instrument: tma170, answers, pageMs: perPage(1.9), consistency: 100 }).includes('Speeding'));
    assert.ok(!integrityFlags({ instrument: tma170, answers, pageMs: perPage(INTEGRITY.speedingSecondsPerItem + 0.5), consistency: 100 }).includes('Speeding'));
    assert.ok(!integrityFlags({ instrument: tma170, answers, pageMs: new Map(), consistency: 100 }).includes('Speeding'), 'no timings, no verdict');
  });

  test('a consistency score under 30 is low consistency', () => {
    const answers = consistent(() => 4);
    assert.deepEqual(integrityFlags({ instrument: tma170, answers, pageMs: slowPages, consistency: 29 }), ['LowConsistency']);
    assert.deepEqual(integrityFlags({ instrument: tma170, answers, pageMs: slowPages, consistency: 30 }), []);
  });
});
