import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/deadline.js';
import { pageCount, pageItems, readPageAnswers } from '../../../src/measurement/instruments/flow.js';
import { scoreAnswers } from '../../../src/measurement/instruments/scoring.js';
import type { Instrument } from '../../../src/measurement/instruments/types.js';
import { instrumentProblems } from '../../../src/measurement/instruments/validate.js';
import { competenceScores } from '../../../src/measurement/competences.js';
import { normProblems, percentile, sten } from '../../../src/measurement/norms.js';
import { questionsPage } from '../../../src/portal/views/questions.js';
import { tma170 } from '../../helpers/content.js';

/** TMA170 with its statements on a response scale from `min` to `max`, labelled "p<value>". */
function onScale(min: number, max: number): Instrument {
  const inst = structuredClone(tma170) as Instrument;
  const labels = Array.from({ length: max - min + 1 }, (_, i) => `p${min + i}`);
  inst.responseScale = { min, max, labels: { en: labels, nl: labels } };
  return inst;
}

describe('response scales of 2 to 11 points', () => {
  test('2 and 11 points validate; 1 and 12 points, a negative lowest point and missing labels are refused with the reason', () => {
    assert.deepEqual(instrumentProblems(onScale(1, 2), 'TMA170'), []);
    assert.deepEqual(instrumentProblems(onScale(0, 10), 'TMA170'), []);
    assert.deepEqual(instrumentProblems(onScale(1, 6), 'TMA170'), []);
    assert.match(instrumentProblems(onScale(1, 12), 'TMA170').join('\n'), /must have 2 to 11 points, it has 12/);
    const one = onScale(3, 3);
    assert.match(instrumentProblems(one, 'TMA170').join('\n'), /min < max/);
    assert.match(instrumentProblems(onScale(-1, 3), 'TMA170').join('\n'), /0 <= min/);
    const short = onScale(1, 7);
    short.responseScale.labels.nl = short.responseScale.labels.nl.slice(1);
    assert.match(instrumentProblems(short, 'TMA170').join('\n'), /labels\.nl must hold 7 labels/);
  });

  test('scoring reverses a negatively keyed answer within the scale: on 0–10, an answer of 10 counts 0', () => {
    const inst = onScale(0, 10);
    const answers = new Map(inst.items.map((i) => [i.id, 10]));
    for (const s of scoreAnswers(inst, answers)) {
      const items = inst.items.filter((i) => i.scale === s.scale);
      const positives = items.filter((i) => i.keying === 'positive').length;
      // By hand: each positive item counts 10, each negative one 0.
      assert.equal(s.raw, 10 * positives, s.scale);
    }
  });

  test('the portal offers every point of a 7-point scale and takes 7, refusing 8', () => {
    const inst = onScale(1, 7);
    const items = pageItems(inst, 1);
    const page = questionsPage(
      { lang: 'en', path: '/p' },
      {
        instrument: inst,
        page: 1,
        pages: pageCount(inst),
        items,
        firstNumber: 1,
        answers: new Map(),
        answeredTotal: 0,
        missing: new Set(),
        action: '/p',
        csrf: 't',
      },
    ).value;
    const values = [...page.matchAll(new RegExp(`name="a_${items[0]!.id}" value="(\\d+)"`, 'g'))].map((m) => Number(m[1]));
    assert.deepEqual(values, [1, 2, 3, 4, 5, 6, 7]);
    assert.ok(page.includes('<span>p7</span>'));
    const form = { [`a_${items[0]!.id}`]: '7', [`a_${items[1]!.id}`]: '8' };
    const read = readPageAnswers(inst, 1, form);
    assert.equal(read.answers.get(items[0]!.id), 7);
    assert.ok(read.missing.includes(items[1]!.id), '8 lies outside 1–7');
  });

  test('competences reverse a negatively weighted scale within the range: on 1–7, (3 × 4 + 2 × (8 − 1)) / 5', () => {
    const model = {
      format: 'assay-competences/1' as const,
      version: 'x',
      description: { en: 'x', nl: 'x' },
      competences: [
        {
          id: 1,
          code: 'C',
          name: { en: 'c', nl: 'c' },
          description: { en: 'c', nl: 'c' },
          scales: [
            { scale: 'a', weight: 3 },
            { scale: 'b', weight: -2 },
          ],
        },
      ],
    };
    const scales = [
      { scale: 'a', raw: 0, mean: 4, items: 1 },
      { scale: 'b', raw: 0, mean: 1, items: 1 },
    ];
    assert.equal(competenceScores(model, scales, { min: 1, max: 7 })[0]!.raw, 5.2);
    assert.equal(competenceScores(model, scales, { min: 1, max: 5 })[0]!.raw, 4.4, 'positive control: on 1–5 the same answers give (12 + 2 × 5) / 5');
  });

  test('percentiles beyond the sample run towards the scale’s own top: on 1–7 a 5 is between the top sample value and 7', () => {
    const norm = {
      mean: 2.5,
      sd: 0.5,
      distribution: [
        [2, 0.5],
        [3, 0.5],
      ] as Array<[number, number]>,
    };
    // By hand: the mid-rank at 3 is 0.5 + 0.25 = 0.75; at the scale's top (7) it is 1; 5 lies halfway: 0.875, 88 rounded half up.
    assert.equal(percentile(5, norm, { min: 1, max: 7 }), 88);
    assert.equal(percentile(5, norm, { min: 1, max: 5 }), 100, 'positive control: on 1–5, 5 is the top');
    // Below: the bottom (0) at 0, the mid-rank 0.25 at 2; 1 lies halfway: 0.125, 13.
    assert.equal(percentile(1, norm, { min: 0, max: 7 }), 13);
    assert.equal(sten(7, norm, { min: 1, max: 7 }), 10);
  });

  test('a norm is checked against the instrument’s range: a mean of 6.5 fits 1–7, not 1–5', () => {
    assert.deepEqual(
      normProblems(
        {
          mean: 6.5,
          sd: 1,
          distribution: [
            [6, 0.5],
            [7, 0.5],
          ],
        },
        'x',
        { min: 1, max: 7 },
      ),
      [],
    );
    assert.match(normProblems({ mean: 6.5, sd: 1 }, 'x', { min: 1, max: 5 }).join(), /mean must be a number from 1 to 5/);
    assert.match(
      normProblems(
        {
          mean: 3,
          sd: 1,
          distribution: [
            [0, 0.5],
            [7, 0.5],
          ],
        },
        'x',
        { min: 1, max: 7 },
      ).join(),
      /values from 1 to 7/,
    );
    assert.match(normProblems({ mean: 3, sd: 6.5 }, 'x', { min: 1, max: 7 }).join(), /at most 6/);
  });
});
