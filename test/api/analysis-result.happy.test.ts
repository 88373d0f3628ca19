import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { CompetenceModel } from '../../src/measurement/types.js';
import { COMPETENCES_FILE, EXAMPLE_NORMS_DIR } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient, startPath } from '../helpers/forms.js';
import { normalisedStenByCounting, percentileByCounting, sampleOf } from '../helpers/norm-oracle.js';
import { instruments, profileAnswers, takeTime } from '../helpers/results.js';
import { activateTestNorms } from '../helpers/norms.js';

const model = JSON.parse(readFileSync(COMPETENCES_FILE, 'utf8')) as CompetenceModel;
const example = JSON.parse(readFileSync(join(EXAMPLE_NORMS_DIR, 'example-tma170.json'), 'utf8'));
const tma170 = instruments.get(0)!;
const LISTS = ['AptitudeScores', 'NormScores', 'NormScoresPercentage', 'AptitudeScoresPercentage', 'NormScoreScales', 'AptitudeScoresScale'];

/**
 * The example groups carry distributions, so their stens are normalised: the band of the normal
 * table that the mid-rank counted from the example's own sample falls in; percentiles are that
 * mid-rank, rounded.
 */
const expectedSten = (raw: number, norm: { distribution: Array<[number, number]> }) =>
  normalisedStenByCounting(sampleOf(norm.distribution, example.sampleSize), raw);
const expectedPercentile = (raw: number, norm: { distribution: Array<[number, number]> }) =>
  percentileByCounting(sampleOf(norm.distribution, example.sampleSize), raw);

// The example tables as a real group: an illustrative one would leave the normed lists empty.
suiteOnEachDatabase('GET /api/candidateanalysisresult/{token}/{culture}', {}, ({ server, creds }) => {
  before(async () => {
    await activateTestNorms(server.running.deps.store);
  });

  test('a completed TMA170: every field and list, in nl-NL and en-GB, against the example tables as a norm group', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    const { answer, level } = profileAnswers(tma170, 2);
    await completeViaForms(new FormClient(server.url), a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
    const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;

    const en = await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`);
    assert.equal(en.status, 200, en.text);
    assert.equal(en.headers.get('cache-control'), 'no-store');
    const r = en.body;
    assert.equal(r.AnalysisToken, a.id);
    assert.equal(r.CandidateIdentifier, a.externalId);
    assert.equal(r.Done, true);
    assert.equal(r.DoneDate, status.CompletedAt);

    // Scales: raw means follow the answers given; stens and percentiles follow the norm group.
    assert.deepEqual(
      r.NormScoreScales.map((x: any) => x.ID),
      tma170.scales.map((s) => s.number),
    );
    for (const [i, s] of tma170.scales.entries()) {
      const raw: number = r.NormScoreScales[i].Value;
      assert.deepEqual(r.NormScoreScales[i], {
        ID: s.number,
        Value: level.get(s.id),
        Description: s.name.en,
        ExternalCode: s.id.toUpperCase().replace(/-/g, '_'),
      });
      assert.equal(r.NormScores[i].Value, expectedSten(raw, example.scales[s.id]), s.id);
      assert.equal(r.NormScoresPercentage[i].Value, expectedPercentile(raw, example.scales[s.id]), s.id);
      assert.ok(r.NormScoresPercentage[i].Value >= 0 && r.NormScoresPercentage[i].Value <= 100);
    }

    // Competences: the weighted means of the scales, then normed the same way.
    assert.deepEqual(
      r.AptitudeScoresScale.map((x: any) => x.ExternalCode),
      model.competences.map((c) => c.code),
    );
    for (const [i, c] of model.competences.entries()) {
      const weights = c.scales.reduce((sum, w) => sum + Math.abs(w.weight), 0);
      const mean = c.scales.reduce((sum, w) => sum + Math.abs(w.weight) * (w.weight > 0 ? level.get(w.scale)! : 6 - level.get(w.scale)!), 0) / weights;
      assert.deepEqual(r.AptitudeScoresScale[i], { ID: c.id, Value: Math.round(mean * 100) / 100, Description: c.name.en, ExternalCode: c.code });
      assert.equal(r.AptitudeScores[i].Value, expectedSten(r.AptitudeScoresScale[i].Value, example.competences[c.code]), c.code);
      assert.equal(r.AptitudeScoresPercentage[i].ID, c.id);
      assert.equal(r.AptitudeScoresPercentage[i].Value, expectedPercentile(r.AptitudeScoresScale[i].Value, example.competences[c.code]), c.code);
    }
    // The profile spreads over several bands and percentiles, so the table and the count are exercised.
    for (const list of ['NormScores', 'NormScoresPercentage', 'AptitudeScores', 'AptitudeScoresPercentage'])
      assert.ok(new Set(r[list].map((x: any) => x.Value)).size >= 3, list);

    // Answers that follow a profile agree on every designated pair.
    assert.equal(r.ConsistencyScore, '100');
    assert.deepEqual(r.IntegrityFlags, []);
    assert.equal(r.NormGroup.Id, 'test-tma170');
    assert.equal(r.NormGroup.Illustrative, false);
    assert.equal(r.NormGroup.SampleSize, 1000);
    assert.match(
      r.Note,
      /^The competences \(Aptitude lists\) are a model written for Assay: weighted combinations of scales with no validation evidence behind the weights\.$/,
      'a real group: the only note is that competences are a model',
    );

    const nl = (await a.api.get(`/api/candidateanalysisresult/${a.id}/nl-NL`)).body;
    assert.deepEqual(
      nl.NormScoreScales.map((x: any) => x.Description),
      tma170.scales.map((s) => s.name.nl),
    );
    assert.deepEqual(
      nl.AptitudeScores.map((x: any) => x.Description),
      model.competences.map((c) => c.name.nl),
    );
    assert.notDeepEqual(
      nl.NormScoreScales.map((x: any) => x.Description),
      r.NormScoreScales.map((x: any) => x.Description),
    );
    for (const list of LISTS)
      assert.deepEqual(
        nl[list].map((x: any) => [x.ID, x.Value, x.ExternalCode]),
        r[list].map((x: any) => [x.ID, x.Value, x.ExternalCode]),
        list,
      );
    const us = (await a.api.get(`/api/candidateanalysisresult/${a.id}/EN-us`)).body;
    assert.deepEqual(us, r, 'cultures match case-insensitively; en-US reads as en-GB');
  });

  test('hurried, uniform answers are flagged, and the status lookup shows flags, consistency and norm group', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    await completeViaForms(new FormClient(server.url), a.id, { answer: () => '5' });
    const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
    assert.deepEqual(r.IntegrityFlags, ['StraightLining', 'Speeding', 'LowConsistency']);
    assert.equal(r.ConsistencyScore, '0', 'agreeing with every statement contradicts every designated pair');
    const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
    assert.deepEqual(status.IntegrityFlags, r.IntegrityFlags);
    assert.equal(status.ConsistencyScore, 0);
    assert.equal(status.NormGroup.Id, r.NormGroup.Id);
    assert.equal(status.AnsweredItems, 170);
    assert.equal(status.TotalItems, 170);
    assert.ok(status.Scores.length === 26, 'the earlier fields are kept');
  });

  test('not finished: Done false, DoneDate null and empty lists; the status lookup shows progress', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 1 });
    const client = new FormClient(server.url);
    const started = await client.submit(startPath(a.id), {});
    const page = await client.get(started.location!);
    const fields: Record<string, string> = { nav: 'next' };
    for (const name of [...page.html.matchAll(/name="(a_[^"]+)"/g)].map((m) => m[1]!)) fields[name] = '4';
    await client.submit(started.location!, fields);

    const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/nl-nl`)).body;
    assert.equal(r.Done, false);
    assert.equal(r.DoneDate, null);
    assert.equal(r.ConsistencyScore, '');
    assert.equal(r.NormGroup, null);
    for (const list of LISTS) assert.deepEqual(r[list], [], list);
    const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
    assert.equal(status.AnsweredItems, 12, 'one page of TMA312');
    assert.equal(status.TotalItems, 312);
    assert.equal(status.IntegrityFlags, null);
    assert.equal(status.NormGroup, null);
  });

  test('completion records the time spent on every questionnaire page', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    await completeViaForms(new FormClient(server.url), a.id, { beforePost: takeTime(server.running.deps.store, a.id) });
    const rows = await server.running.deps.store.db.selectFrom('assessment_page_times').selectAll().where('analysis_id', '=', a.id).orderBy('page').execute();
    assert.deepEqual(
      rows.map((r) => r.page),
      Array.from({ length: 17 }, (_, i) => i + 1),
    );
    for (const row of rows) assert.ok(row.ms >= 59_000 && row.ms < 120_000, `page ${row.page}: ${row.ms} ms`);
  });
});
