import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/deadline.js';
import { scoreAnswers } from '../../../src/measurement/instruments/scoring.js';
import type { Instrument } from '../../../src/measurement/instruments/types.js';
import { instrumentProblems } from '../../../src/measurement/instruments/validate.js';
import { normEvidence } from '../../../src/measurement/norm-evidence.js';
import { competences, tma170 } from '../../helpers/content.js';

/** TMA170 with its first item also counting, reversed, for the second scale. */
function withShared(): { inst: Instrument; shared: string; other: string } {
  const inst = structuredClone(tma170) as Instrument;
  const item = inst.items[0]!;
  const other = inst.scales.find((s) => s.id !== item.scale)!.id;
  item.alsoScales = [{ scale: other, keying: item.keying === 'positive' ? 'negative' : 'positive' }];
  return { inst, shared: item.id, other };
}

describe('items that count for several scales', () => {
  test('an item counts for each of its scales, keyed as it is there', () => {
    const { inst, shared, other } = withShared();
    const item = inst.items[0]!;
    // Everything answered 1 but the shared item, answered 5.
    const answers = new Map(inst.items.map((i) => [i.id, i.id === shared ? 5 : 1]));
    const scores = new Map(scoreAnswers(inst, answers).map((s) => [s.scale, s]));
    const plain = new Map(scoreAnswers(tma170, answers).map((s) => [s.scale, s]));
    // By hand: the other scale gains one item; the shared item's 5 counts there with the other keying.
    const keyedThere = item.keying === 'positive' ? 1 : 5;
    assert.equal(scores.get(other)!.items, plain.get(other)!.items + 1);
    assert.equal(scores.get(other)!.raw, plain.get(other)!.raw + keyedThere);
    assert.deepEqual(scores.get(item.scale), plain.get(item.scale), 'its own scale as before');
  });

  test('the norm evidence takes the item into both scales’ reliability', () => {
    const { inst, shared, other } = withShared();
    const answers = [0, 1, 2, 3, 4].map((k) => new Map(inst.items.map((i, j) => [i.id, 1 + ((j + k * 3) % 5)])));
    const evidence = normEvidence(inst, competences, answers);
    assert.ok(evidence.scales[other]!.items!.some((i) => i.id === shared));
    assert.ok(evidence.scales[inst.items[0]!.scale]!.items!.some((i) => i.id === shared));
    assert.ok(!normEvidence(tma170, competences, answers).scales[other]!.items!.some((i) => i.id === shared), 'positive control: not without alsoScales');
  });

  test('unknown, repeated and unkeyed further scales are refused', () => {
    const { inst, other } = withShared();
    assert.deepEqual(instrumentProblems(inst, 'TMA170'), []);
    const item = inst.items[0]!;
    item.alsoScales = [
      { scale: 'telepathy', keying: 'positive' },
      { scale: item.scale, keying: 'positive' },
      { scale: other, keying: 'sideways' as 'positive' },
    ];
    const problems = instrumentProblems(inst, 'TMA170').join('\n');
    assert.match(problems, /also counts for unknown scale "telepathy"/);
    assert.match(problems, new RegExp(`counts for scale "${item.scale}" twice`));
    assert.match(problems, new RegExp(`keying on "${other}" must be`));
  });
});
