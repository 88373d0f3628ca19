import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders, type Credentials } from '../helpers/http.js';
import { readPdf } from '../helpers/pdf.js';
import { instruments, profileAnswers, takeTime } from '../helpers/results.js';

const tma170 = instruments.get(0)!;
// At alpha .80 a sten's SEM is 2·√.2 = 0.8944 and a 90% band is ±1.645 of it: ±1.4714 (worked by hand).
const HALF = 1.4714;
const tenth = (x: number) => Math.round(x * 10) / 10;

suiteOnEachDatabase('every sten carries its 90% band where the norm group records its reliability', { tenant: false }, ({ db, server, cliEnv: env }) => {
  /** A portal whose own norm group is a table of mean 3, SD 0.8 per scale, with or without a reliability of .80. */
  async function portalWith(reliability: boolean): Promise<Credentials> {
    const creds = await server.tenant(undefined, `https://bands-${reliability}-${db}.example.test`);
    const scales = Object.fromEntries(
      tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.8, ...(reliability ? { reliability: { alpha: 0.8, sem: 0.36, semSten: 0.89 } } : {}) }]),
    );
    const file = join(server.dataDir, `bands-${reliability}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        format: reliability ? 'assay-norms/2' : 'assay-norms/1',
        name: `Bands ${reliability}`,
        instrument: 'TMA170',
        source: 'A test table',
        sampleSize: 500,
        scales,
      }),
    );
    const imported = await runCli(['norms', 'import', file, '--json'], env);
    assert.equal(imported.code, 0, imported.stderr);
    const activated = await runCli(['norms', 'activate', JSON.parse(imported.stdout).id, '--portal-domain', creds.portalDomain], env);
    assert.equal(activated.code, 0, activated.stderr);
    return creds;
  }

  async function completed(creds: Credentials) {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    await completeViaForms(new FormClient(server.url), a.id, {
      answer: profileAnswers(tma170, 1).answer,
      beforePost: takeTime(server.running.deps.store, a.id),
    });
    return a;
  }

  test('the access call, the results endpoint and the report give each sten its band: sten ± 1.47 at alpha .80, within 1–10', async () => {
    const creds = await portalWith(true);
    const a = await completed(creds);
    const access = (await a.api.get(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`)).body.Data.Assessments[0].Results;
    assert.equal(access.Scales.length, tma170.scales.length);
    const stens = new Set<number>();
    for (const s of access.Scales) {
      stens.add(s.Sten);
      assert.deepEqual(s.StenBand, { Low: tenth(Math.max(1, s.Sten - HALF)), High: tenth(Math.min(10, s.Sten + HALF)) }, s.Code);
    }
    assert.ok(stens.size >= 3, `stens spread over ${[...stens].join(', ')}: the band is checked at several points, ends included`);

    const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
    assert.deepEqual(Object.keys(r.NormScores[0]).sort(), ['Description', 'ExternalCode', 'ID', 'Value'], "the vendor's items keep exactly their four fields");
    assert.equal(r.StenBands.length, r.NormScores.length, 'one band per scale sten (the table has no competence norms)');
    for (const [i, b] of r.StenBands.entries()) {
      assert.deepEqual([b.ID, b.ExternalCode, b.Sten], [r.NormScores[i].ID, r.NormScores[i].ExternalCode, r.NormScores[i].Value]);
      assert.ok(b.Low <= b.Sten && b.Sten <= b.High);
    }

    const html = await (await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=en`, { headers: authHeaders(creds) })).text();
    assert.match(html, /<th scope="col" class="num">90% band<\/th>/);
    assert.match(html, /The 90% band is where the sten would fall nine times out of ten/);
    assert.equal([...html.matchAll(/<line class="sten-band"/g)].length, tma170.scales.length, 'the chart draws every band');
    const first = access.Scales[0];
    assert.ok(html.includes(`<td class="num">${first.StenBand.Low.toFixed(1)}–${first.StenBand.High.toFixed(1)}</td>`));
    const pdf = await readPdf(
      new Uint8Array(
        await (await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?format=pdf&lang=nl`, { headers: authHeaders(creds) })).arrayBuffer(),
      ),
    );
    assert.match(pdf.text.join(' '), /90%-band/);
  });

  test('a group without reliability gives stens without bands, and the report says nothing of bands', async () => {
    const creds = await portalWith(false);
    const a = await completed(creds);
    const access = (await a.api.get(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`)).body.Data.Assessments[0].Results;
    assert.ok(
      access.Scales.every((s: any) => Number.isInteger(s.Sten) && s.StenBand === null),
      'positive control: normed, but precision unknown',
    );
    const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
    assert.equal(r.NormScores.length, tma170.scales.length);
    assert.deepEqual(r.StenBands, []);
    const html = await (await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=en`, { headers: authHeaders(creds) })).text();
    assert.doesNotMatch(html, /90% band|sten-band/);
  });
});
