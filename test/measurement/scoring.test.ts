import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import fc from 'fast-check';
import { pageCount, pageItems } from '../../src/measurement/instruments/flow.js';
import type { Instrument } from '../../src/measurement/instruments/types.js';
import { scoreCompletion } from '../../src/measurement/completion.js';
import { competenceScores } from '../../src/measurement/competences.js';
import { competences, tma170, tma312 } from '../helpers/content.js';

const responses = (instrument: Instrument) =>
  fc.array(fc.integer({ min: 1, max: 5 }), { minLength: instrument.items.length, maxLength: instrument.items.length });

describe('scoring a completion', () => {
  test('is invariant to the order in which pages are answered', () => {
    const permutations = (instrument: Instrument) => {
      const pages = Array.from({ length: pageCount(instrument) }, (_, i) => i + 1);
      return fc.shuffledSubarray(pages, { minLength: pages.length }).map((order) => ({ instrument, pages, order }));
    };
    fc.assert(
      fc.property(fc.oneof(permutations(tma170), permutations(tma312)), responses(tma312), ({ instrument, pages, order }, values) => {
        // The answers go in page by page, in the order the candidate posts them.
        const byPage = (sequence: number[]) => {
          const answers = new Map<string, number>();
          for (const page of sequence) for (const item of pageItems(instrument, page)) answers.set(item.id, values[instrument.items.indexOf(item)]!);
          return answers;
        };
        const times = new Map(pages.map((p) => [p, 30_000]));
        assert.deepEqual(scoreCompletion(instrument, competences, byPage(order), times), scoreCompletion(instrument, competences, byPage(pages), times));
      }),
      { numRuns: 100 },
    );
  });

  test('is undefined until every item is answered', () => {
    const answers = new Map(tma170.items.slice(1).map((item) => [item.id, 3]));
    assert.equal(scoreCompletion(tma170, competences, answers, new Map()), undefined);
  });

  test('competence scores stay on 1–5, and reverse a negatively weighted scale', () => {
    fc.assert(
      fc.property(responses(tma312), (values) => {
        const answers = new Map(tma312.items.map((item, i) => [item.id, values[i]!]));
        const result = scoreCompletion(tma312, competences, answers, new Map())!;
        assert.equal(result.competences.length, competences.competences.length);
        for (const c of result.competences) assert.ok(c.raw >= 1 && c.raw <= 5, `${c.competence} ${c.raw}`);
      }),
      { numRuns: 200 },
    );
    const model = {
      ...competences,
      competences: [
        {
          ...competences.competences[0]!,
          scales: [
            { scale: 'achievement', weight: 3 },
            { scale: 'pace', weight: -2 },
          ],
        },
      ],
    };
    const scoreWith = (pace: number) =>
      competenceScores(model, [
        { scale: 'achievement', raw: 0, mean: 4, items: 1 },
        { scale: 'pace', raw: 0, mean: pace, items: 1 },
      ])[0]!.raw;
    // Inputs where each mistake gives other numbers: pace dropped (4 and 4), not reversed (2.8 and
    // 4.4), its weight's size ignored (4.25 and 3.25).
    assert.equal(scoreWith(1), 4.4, '(3 × 4 + 2 × (6 − 1)) / 5');
    assert.equal(scoreWith(5), 2.8, '(3 × 4 + 2 × (6 − 5)) / 5');
  });
});
