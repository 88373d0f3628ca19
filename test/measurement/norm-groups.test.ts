import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { readContent } from '../../src/measurement/load.js';
import { buildNormTable, NormError, parseNormFile, toNormFile, type SampleMember } from '../../src/measurement/norm-groups.js';
import { scoreCompletion } from '../../src/measurement/completion.js';
import { competenceProblems } from '../../src/measurement/competences.js';
import { EXAMPLE_NORMS_DIR } from '../../src/platform/paths.js';
import { competences, instruments, tma170 } from '../helpers/content.js';

function member(seed: number, flags: SampleMember['flags'] = []): SampleMember {
  const answers = new Map(tma170.items.map((item, i) => [item.id, 1 + ((i * seed + seed) % 5)]));
  const r = scoreCompletion(tma170, competences, answers, new Map())!;
  return { scales: r.scales, competences: r.competences, flags };
}

describe('norm groups built from completed assessments', () => {
  test('members with integrity flags are left out, and too small a sample is refused with the counts', () => {
    const sample = [...Array.from({ length: 32 }, (_, i) => member(i + 1)), member(99, ['Speeding']), member(98, ['StraightLining'])];
    const built = buildNormTable(sample, tma170, competences, 30);
    assert.equal(built.used, 32);
    assert.equal(built.excluded, 2);
    assert.deepEqual(
      Object.keys(built.table.scales),
      tma170.scales.map((s) => s.id),
    );
    assert.equal(Object.keys(built.table.competences).length, competences.competences.length);
    const achievement = sample.slice(0, 32).map((m) => m.scales.find((s) => s.scale === 'achievement')!.mean);
    assert.ok(Math.abs(built.table.scales.achievement!.mean - achievement.reduce((a, b) => a + b) / 32) < 1e-3);
    assert.throws(
      () => buildNormTable(sample, tma170, competences, 33),
      (e: unknown) => e instanceof NormError && /32 usable .* \(2 more had integrity flags\); at least 33/.test(e.message),
    );
  });

  test('no minimum below 30 is honoured: 29 members are refused even when 10 are asked for', () => {
    const sample = Array.from({ length: 30 }, (_, i) => member(i + 1));
    assert.equal(buildNormTable(sample, tma170, competences, 10).used, 30, 'positive control: 30 are enough');
    assert.throws(
      () => buildNormTable(sample.slice(1), tma170, competences, 10),
      (e: unknown) => e instanceof NormError && /29 usable .*; at least 30 are needed/.test(e.message),
    );
  });
});

describe('norm files', () => {
  test('the shipped examples are valid, labelled illustrative, and round-trip', () => {
    // The SPI ships real norms instead (test/content/spi).
    for (const instrument of [...instruments.values()].filter((i) => i.code !== 'SPI')) {
      const data = readContent(join(EXAMPLE_NORMS_DIR, `example-${instrument.code.toLowerCase()}.json`));
      const group = parseNormFile(data, instruments, competences);
      assert.equal(group.assessmentType, instrument.assessmentType);
      assert.equal(group.illustrative, true);
      assert.match(group.source, /never for selection/);
      assert.deepEqual(toNormFile(group, instrument), data);
    }
  });

  test('every problem is listed, by field', () => {
    const data = readContent(join(EXAMPLE_NORMS_DIR, 'example-tma170.json')) as Record<string, any>;
    const broken = {
      ...data,
      sampleSize: 1,
      collectedFrom: 'last year',
      scales: { ...data.scales, achievement: { mean: 9, sd: 1 }, nonsense: { mean: 3, sd: 1 } },
      competences: { NOPE: { mean: 3, sd: 1 } },
    };
    delete broken.scales.autonomy;
    assert.throws(
      () => parseNormFile(broken, instruments, competences),
      (e: unknown) =>
        e instanceof NormError &&
        [
          'sampleSize',
          'collectedFrom',
          'scale "achievement": mean',
          'scale "autonomy" has no norm',
          'scale "nonsense" is not a scale',
          'competence "NOPE"',
        ].every((p) => e.message.includes(p)),
    );
    assert.throws(() => parseNormFile({ ...data, instrument: 'TMA999' }, instruments, competences), /instrument must be/);
  });
});

describe('the competence model', () => {
  test('the shipped model is sound and uses every scale', () => {
    const ids = new Set(tma170.scales.map((s) => s.id));
    assert.deepEqual(competenceProblems(competences, ids), []);
    assert.deepEqual(new Set(competences.competences.flatMap((c) => c.scales.map((s) => s.scale))), ids);
  });

  test('problems are named', () => {
    const ids = new Set(tma170.scales.map((s) => s.id));
    const bad = { ...competences, competences: [{ ...competences.competences[0]!, code: 'bad code', scales: [{ scale: 'nope', weight: 0 }] }] };
    const problems = competenceProblems(bad, ids).join('\n');
    assert.match(problems, /UPPER_SNAKE_CASE/);
    assert.match(problems, /unknown scale "nope"/);
    assert.match(problems, /non-zero integer/);
  });
});
