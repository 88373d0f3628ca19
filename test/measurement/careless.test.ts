import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { carelessNorm, MIN_PER_ITEM } from '../../src/measurement/careless/calibrate.js';
import { integrityFlags } from '../../src/measurement/integrity.js';
import { CARELESS_INDICES } from '../../src/measurement/types.js';
import { instruments, tma170 } from '../helpers/content.js';

const spi = instruments.get(2)!;

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Careful respondents: a trait per narrow scale, each keyed answer that trait plus noise, on 1–6. */
function careful(n: number, next: () => number): Array<Map<string, number>> {
  return Array.from({ length: n }, () => {
    const trait = new Map(spi.scales.map((s) => [s.id, 1 + next() * 5]));
    return new Map(
      spi.items.map((item) => {
        const v = Math.min(6, Math.max(1, Math.round(trait.get(item.scale)! + (next() - 0.5) * 2)));
        return [item.id, item.keying === 'negative' ? 7 - v : v];
      }),
    );
  });
}

const none = { pageMs: new Map<number, number>(), consistency: undefined };

describe('careless-responding norm: calibration and flags', () => {
  test('a simulated careful sample: together at most 1% flagged, each index alone no more; random answer sets are flagged by name', () => {
    const next = random(58);
    const sample = careful(MIN_PER_ITEM * spi.items.length, next);
    const norm = carelessNorm(
      spi,
      sample.map((answers, i) => ({ answers, gender: 1 + (i % 2), age: 20 + (i % 40) })),
    )!;
    assert.ok(norm, 'a norm from a large enough sample');
    assert.ok(norm.flagged <= 0.01 && norm.flagged > 0, `${norm.flagged} flagged`);
    for (const ix of CARELESS_INDICES) assert.ok(norm.indices[ix].falsePositive <= norm.flagged, ix);
    const counted = sample.filter((answers) => integrityFlags({ instrument: spi, answers, ...none, careless: norm }).length > 0).length;
    assert.equal(counted / sample.length, norm.flagged, 'the recorded share is what the flags give');
    const byGender = Object.values(norm.rates!.gender!);
    assert.equal(
      byGender.reduce((s, r) => s + r.flagged, 0),
      counted,
    );
    // Positive control: uniformly random answers are flagged, each naming careless indices only.
    let caught = 0;
    for (let k = 0; k < 50; k++) {
      const answers = new Map(spi.items.map((item) => [item.id, 1 + Math.floor(next() * 6)]));
      const flags = integrityFlags({ instrument: spi, answers, ...none, careless: norm });
      assert.ok(
        flags.every((f) => (CARELESS_INDICES as readonly string[]).includes(f)),
        flags.join(),
      );
      if (flags.length) caught++;
    }
    assert.ok(caught >= 45, `${caught} of 50 random answer sets caught`);
  });

  test('no careless norm for an instrument that declares its pairs, a sample under 5 per item, or an item without spread', () => {
    const next = random(7);
    const sample = careful(MIN_PER_ITEM * spi.items.length, next).map((answers) => ({ answers }));
    assert.ok(carelessNorm(spi, sample), 'positive control');
    assert.equal(carelessNorm(spi, sample.slice(1)), undefined);
    const tma = Array.from({ length: MIN_PER_ITEM * tma170.items.length }, () => ({
      answers: new Map(tma170.items.map((i) => [i.id, 1 + Math.floor(next() * 5)])),
    }));
    assert.equal(carelessNorm(tma170, tma), undefined);
    const flat = sample.map(({ answers }) => ({ answers: new Map([...answers, [spi.items[0]!.id, 3]]) }));
    assert.equal(carelessNorm(spi, flat), undefined);
  });
});
