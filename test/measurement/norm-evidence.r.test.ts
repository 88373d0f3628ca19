import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { scoreCompletion } from '../../src/measurement/completion.js';
import { buildNormTable, type SampleMember } from '../../src/measurement/norm-groups.js';
import { competences, tma170 } from '../helpers/content.js';
import { runR } from '../helpers/r.js';
import { tempDir } from '../helpers/server.js';

/** A seeded uniform generator, so the sample is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Respondents with one latent level per scale, answering each item near it on 1–5 (negatively keyed items mirrored). */
function sample(n: number): Array<Map<string, number>> {
  const next = random(42);
  const z = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Array.from({ length: n }, () => {
    const level = new Map(tma170.scales.map((s) => [s.id, 3 + z()]));
    return new Map(
      tma170.items.map((item) => {
        const keyed = Math.min(5, Math.max(1, Math.round(level.get(item.scale)! + 1.2 * z())));
        return [item.id, item.keying === 'negative' ? 6 - keyed : keyed];
      }),
    );
  });
}

describe('a norm group built from answers records the reliability R computes', { timeout: 180_000 }, () => {
  test('per scale: alpha, its Feldt interval, item-rest r, alpha if deleted and the SEM of the scale mean equal R psych::alpha to 3 decimals', () => {
    const answers = sample(300);
    const members: SampleMember[] = answers.map((a) => ({ ...scoreCompletion(tma170, competences, a, new Map())!, flags: [], answers: a }));
    const { table } = buildNormTable(members, tma170, competences, 30);

    // The raw answers go to R as they were given: R reverses the negatively keyed items itself.
    const dir = tempDir('assay-r-');
    const items = tma170.items.map((i) => i.id);
    writeFileSync(join(dir, 'answers.csv'), [items.join(','), ...answers.map((a) => items.map((i) => a.get(i)).join(','))].join('\n'));
    const scales = tma170.scales.map((s) => ({
      id: s.id,
      items: tma170.items.filter((i) => i.scale === s.id).map((i) => ({ id: i.id, reversed: i.keying === 'negative' })),
    }));
    writeFileSync(join(dir, 'scales.json'), JSON.stringify(scales));
    const r = JSON.parse(
      runR(`
suppressMessages(library(psych))
x <- read.csv("${join(dir, 'answers.csv')}", check.names = FALSE)
scales <- jsonlite::fromJSON("${join(dir, 'scales.json')}", simplifyDataFrame = FALSE)
out <- lapply(scales, function(s) {
  ids <- sapply(s$items, function(i) i$id); rev <- ids[sapply(s$items, function(i) i$reversed)]
  keyed <- x[, ids]; for (i in rev) keyed[[i]] <- 6 - keyed[[i]]
  a <- psych::alpha(keyed, warnings = FALSE, check.keys = FALSE)
  list(id = s$id, alpha = a$total$raw_alpha, lower = a$feldt$lower.ci$raw_alpha, upper = a$feldt$upper.ci$raw_alpha,
       sem = sd(rowMeans(keyed)) * sqrt(1 - a$total$raw_alpha), itemRest = a$item.stats$r.drop, alphaIfDeleted = a$alpha.drop$raw_alpha)
})
cat(jsonlite::toJSON(out, digits = NA, auto_unbox = TRUE))`),
    ) as Array<{ id: string; alpha: number; lower: number; upper: number; sem: number; itemRest: number[]; alphaIfDeleted: number[] }>;

    const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 0.0006, `${what}: Assay ${a}, R ${b}`);
    assert.equal(r.length, tma170.scales.length);
    for (const expected of r) {
      const got = table.scales[expected.id]!.reliability!;
      assert.ok(got, `${expected.id} has its reliability`);
      close(got.alpha, expected.alpha, `${expected.id} alpha`);
      close(got.alphaLower!, expected.lower, `${expected.id} lower`);
      close(got.alphaUpper!, expected.upper, `${expected.id} upper`);
      close(got.sem, expected.sem, `${expected.id} SEM`);
      close(got.semSten, 2 * Math.sqrt(1 - expected.alpha), `${expected.id} SEM in stens`);
      got.items!.forEach((item, j) => {
        close(item.itemRest!, expected.itemRest[j]!, `${expected.id} ${item.id} item-rest`);
        close(item.alphaIfDeleted!, expected.alphaIfDeleted[j]!, `${expected.id} ${item.id} alpha if deleted`);
      });
    }
    // Positive control on the sample: these scales are reliable, but not perfectly.
    assert.ok(
      r.every((s) => s.alpha > 0.5 && s.alpha < 0.99),
      r.map((s) => s.alpha.toFixed(2)).join(' '),
    );
    // Competences get Mosier's composite reliability, within 0 and 1 here.
    const comp = Object.values(table.competences).map((n) => n.reliability!.alpha);
    assert.equal(comp.length, competences.competences.length);
    assert.ok(
      comp.every((a) => a > 0 && a < 1),
      comp.join(' '),
    );
  });

  test('without every answer of every member there is no reliability: a table built from scores alone says nothing of precision', () => {
    const answers = sample(40);
    const members: SampleMember[] = answers.map((a) => ({ ...scoreCompletion(tma170, competences, a, new Map())!, flags: [] }));
    const { table } = buildNormTable(members, tma170, competences, 30);
    assert.ok(Object.values(table.scales).every((n) => n.reliability === undefined));
    const withAnswers = buildNormTable(
      answers.map((a, i) => ({ ...members[i]!, answers: a })),
      tma170,
      competences,
      30,
    ).table;
    assert.ok(
      Object.values(withAnswers.scales).every((n) => n.reliability !== undefined),
      'positive control',
    );
  });
});
