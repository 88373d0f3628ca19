import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, csrfToken, FormClient } from '../helpers/forms.js';
import { apiClient, type Credentials } from '../helpers/http.js';
import { stenOf } from '../helpers/norm-oracle.js';
import { instruments, profileAnswers, takeTime } from '../helpers/results.js';

const tma170 = instruments.get(0)!;

// No example norms: this suite starts with no norm group for TMA170 (the SPI's shipped groups are stored at start).
suiteOnEachDatabase(
  'norm groups: built from completions, imported from a file, pinned at completion',
  { env: { EXAMPLE_NORMS: 'false' }, tenant: false },
  ({ db, server, cliEnv: env }) => {
    let tenant: Credentials & { tenantId: string; portalDomain: string };
    before(async () => {
      tenant = await server.tenant(undefined, `https://norms-${db}.example.test`);
    });

    async function cli(...args: string[]) {
      const r = await runCli(args, env);
      assert.equal(r.code, 0, `assay ${args.join(' ')}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    }

    /** A careful, unhurried TMA170 candidate whose profile depends on `seed`. */
    async function completed(creds: Credentials, seed: number): Promise<string> {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
      await completeViaForms(new FormClient(server.url), a.id, {
        answer: profileAnswers(tma170, seed).answer,
        beforePost: takeTime(server.running.deps.store, a.id),
      });
      return a.id;
    }

    /** A candidate who answers the release question with `decision`, or leaves it pending. */
    async function completedAndDecided(creds: Credentials, decision: string | undefined): Promise<void> {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
      const client = new FormClient(server.url);
      const end = await completeViaForms(client, a.id, { answer: profileAnswers(tma170, 40).answer, beforePost: takeTime(server.running.deps.store, a.id) });
      if (!decision) return;
      const page = await client.get(end.location!);
      assert.equal((await client.post(end.location!, { _csrf: csrfToken(page.html), decision })).status, 303);
    }

    const result = async (creds: Credentials, id: string) => (await apiClient(server.url, creds).get(`/api/candidateanalysisresult/${id}/en-GB`)).body;

    test(
      'build, list, activate for one portal, import, activate for everyone; each result keeps the group it was completed under',
      { timeout: 240_000 },
      async () => {
        const before = await completed(tenant, 0);
        const unnormed = await result(tenant, before);
        assert.equal(unnormed.NormGroup, null);
        assert.match(unnormed.Note, /No norm group/);
        assert.deepEqual([unnormed.NormScores, unnormed.NormScoresPercentage, unnormed.AptitudeScores, unnormed.AptitudeScoresPercentage], [[], [], [], []]);
        assert.equal(unnormed.NormScoreScales.length, 26, 'raw scores are there without norms');

        // Four at a time: 29 careful candidates in all, whose results need no release.
        for (let seed = 1; seed < 29; seed += 4) await Promise.all([0, 1, 2, 3].filter((i) => seed + i < 29).map((i) => completed(tenant, seed + i)));
        // One hurried candidate: flagged, so left out of the norms.
        const hurried = await newAssessment(server.url, tenant, { AssessmentType: 0 });
        await completeViaForms(new FormClient(server.url), hurried.id);
        // Three under a release question: only the one the candidate released may be used.
        await cli('portal', 'set', '--portal-domain', tenant.portalDomain, '--candidate-release', 'on', '--json');
        for (const decision of ['release', 'decline', undefined]) await completedAndDecided(tenant, decision);
        await cli('portal', 'set', '--portal-domain', tenant.portalDomain, '--candidate-release', 'off', '--json');

        const refused = await runCli(['norms', 'build', '--instrument', '0', '--name', 'Too few', '--language', 'en'], env);
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /30 usable completed assessments \(1 more had integrity flags\); at least 200 are needed/);
        const floor = await runCli(['norms', 'build', '--instrument', '0', '--name', 'Below the floor', '--language', 'en', '--min-sample', '29'], env);
        assert.equal(floor.code, 1);
        assert.match(floor.stderr, /--min-sample must be a whole number of at least 30/);

        // Every completion here was in English: none is Dutch.
        const dutch = await runCli(['norms', 'build', '--instrument', '0', '--name', 'Dutch', '--language', 'nl', '--min-sample', '30'], env);
        assert.equal(dutch.code, 1);
        assert.match(dutch.stderr, /^assay: 0 usable completed assessments/m);
        const built = await cli(
          'norms',
          'build',
          '--instrument',
          '0',
          '--name',
          `Our applicants ${db}`,
          '--language',
          'en',
          '--tenant',
          tenant.tenantId,
          '--min-sample',
          '30',
          '--json',
        );
        assert.equal(built.sampleSize, 30, '29 without a release question and the released one; not the pending or declined');
        assert.equal(built.excluded, 1);
        let list = await cli('norms', 'list', '--json');
        // The SPI's shipped groups are stored at start (one active, five inactive); this suite's claims are about TMA170's.
        const tma = (rows: any[]) => rows.filter((g: any) => g.instrument === 'TMA170');
        const spi = list.filter((g: any) => g.instrument === 'SPI');
        assert.deepEqual([spi.length, spi.filter((g: any) => g.active).map((g: any) => [g.id, g.illustrative])], [6, [['spi-sapa-2.1.0', false]]]);
        assert.equal(tma(list).length + spi.length, list.length, 'no other instrument has a group');
        assert.deepEqual(
          tma(list).map((g: any) => [g.id, g.active, g.illustrative, g.sampleSize]),
          [[built.id, false, false, 30]],
        );
        // Built from answers, the group records each scale's reliability (these profiles answer a scale alike: alpha 1).
        const sheet = await cli('norms', 'show', built.id, '--json');
        assert.equal(sheet.format, 'assay-norms/2');
        assert.deepEqual([sheet.language, sheet.contentVersion], ['en', tma170.version], 'the group records what its sample was taken in');
        // And its sample's account: the flagged one left out, the candidates' Gender counted (no age: candidates give none).
        const { considered, excluded, gender, age, genderDifferences } = sheet.sample;
        assert.deepEqual([considered, excluded.total, age], [31, 1, undefined]);
        assert.equal(gender.male + gender.female + gender.neutral + gender.unknown, 30, JSON.stringify(gender));
        assert.equal(Object.keys(genderDifferences).length, tma170.scales.length);
        // 30 in all: at least one gender has fewer than 30, and gives its count only, no mean, share or d.
        const small = Object.values(genderDifferences).flatMap((d: any) => [d.male, d.female].filter((g) => g.n < 30).map((g) => [d.d, g.mean, g.high]));
        assert.ok(small.length >= tma170.scales.length, JSON.stringify(gender));
        assert.ok(
          small.every((x) => x.every((v) => v === null)),
          JSON.stringify(small),
        );
        // One completion in another content version: the sample mixes two, and is refused.
        const store = server.running.deps.store;
        await store.write((trx) => trx.updateTable('assessments').set({ content_version: '0.9.0' }).where('analysis_id', '=', before).execute());
        const mixed = await runCli(
          ['norms', 'build', '--instrument', '0', '--name', 'Mixed', '--language', 'en', '--tenant', tenant.tenantId, '--min-sample', '30'],
          env,
        );
        assert.equal(mixed.code, 1);
        assert.match(mixed.stderr, new RegExp(`mixes content versions \\(0\\.9\\.0, ${tma170.version.replace(/\./g, '\\.')}\\)`));
        await store.write((trx) => trx.updateTable('assessments').set({ content_version: tma170.version }).where('analysis_id', '=', before).execute());
        for (const s of tma170.scales) {
          assert.equal(sheet.scales[s.id].reliability.alpha, 1, s.id);
          assert.equal(sheet.scales[s.id].reliability.items.length, tma170.items.filter((i) => i.scale === s.id).length);
        }

        await cli('norms', 'activate', built.id, '--portal-domain', tenant.portalDomain, '--json');
        const underBuilt = await completed(tenant, 3);
        const normed = await result(tenant, underBuilt);
        assert.equal(normed.NormGroup.Id, built.id);
        assert.equal(normed.NormGroup.SampleSize, 30);
        assert.equal(normed.NormGroup.Illustrative, false);
        assert.match(normed.Note, /^The competences \(Aptitude lists\) are a model/, 'a real group: nothing about norms to note');
        assert.equal(normed.NormScores.length, 26);
        assert.ok(normed.NormScores.every((x: any) => Number.isInteger(x.Value) && x.Value >= 1 && x.Value <= 10));
        const other = await server.tenant();
        assert.equal((await result(other, await completed(other, 4))).NormGroup, null, 'another portal has not chosen it, and nothing is active');

        // A published table in the documented file format.
        const file = join(server.dataDir, 'published.json');
        const scales = Object.fromEntries(tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5 }]));
        writeFileSync(
          file,
          JSON.stringify({
            format: 'assay-norms/1',
            name: 'Published table',
            instrument: 'TMA170',
            source: 'A test publisher',
            sampleSize: 2500,
            collectedFrom: '2024-01-01',
            collectedTo: '2024-12-31',
            scales,
          }),
        );
        const imported = await cli('norms', 'import', file, '--json');
        await cli('norms', 'activate', imported.id, '--json');
        list = await cli('norms', 'list', '--json');
        assert.deepEqual(
          tma(list).map((g: any) => [g.id, g.active, g.portals]),
          [
            [built.id, false, 1],
            [imported.id, true, 0],
          ],
        );

        const underImported = await result(other, await completed(other, 5));
        assert.equal(underImported.NormGroup.Id, imported.id);
        assert.equal(underImported.NormGroup.CollectedFrom, '2024-01-01');
        // Scale means of 3 with SD 0.5: each sten is the published band that holds z = (raw − 3) / 0.5.
        for (const [i, raw] of underImported.NormScoreScales.entries()) {
          assert.equal(underImported.NormScores[i].Value, stenOf(raw.Value, { mean: 3, sd: 0.5 }), `raw ${raw.Value}`);
        }
        assert.deepEqual(underImported.AptitudeScores, [], 'the table has no competence norms');
        assert.equal((await result(tenant, await completed(tenant, 6))).NormGroup.Id, built.id, "a portal's own choice wins over the default");

        // Earlier results are reproducible: each keeps the group pinned when it was completed.
        assert.deepEqual(await result(tenant, before), unnormed);
        assert.deepEqual(await result(tenant, underBuilt), normed);
      },
    );

    test('norm files: version 2 carries reliability and shows it; version 1 still imports and says its precision is unknown', async () => {
      const scales = Object.fromEntries(
        tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5, reliability: { alpha: 0.8, alphaLower: 0.75, alphaUpper: 0.84, sem: 0.22, semSten: 0.89 } }]),
      );
      const v2 = { format: 'assay-norms/2', name: 'With precision', instrument: 'TMA170', source: 'A test publisher', sampleSize: 500, scales };
      const file = join(server.dataDir, 'v2.json');
      writeFileSync(file, JSON.stringify(v2));
      const imported = await cli('norms', 'import', file, '--json');
      const shown = await cli('norms', 'show', imported.id, '--json');
      assert.deepEqual(shown.scales, scales, 'the reliability round-trips');
      const text = await runCli(['norms', 'show', imported.id], env);
      assert.match(text.stdout, /alpha\s+95% interval/);
      assert.match(text.stdout, /0\.80\s+\[0\.75, 0\.84\]\s+0\.22\s+0\.89/);
      assert.doesNotMatch(text.stdout, /Precision unknown/);

      const v1 = {
        ...v2,
        format: 'assay-norms/1',
        name: 'Without precision',
        scales: Object.fromEntries(tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5 }])),
      };
      writeFileSync(file, JSON.stringify(v1));
      const old = await cli('norms', 'import', file, '--json');
      assert.match((await runCli(['norms', 'show', old.id], env)).stdout, /Precision unknown/);
      assert.equal((await cli('norms', 'show', old.id, '--json')).format, 'assay-norms/1');

      writeFileSync(file, JSON.stringify({ ...v2, format: 'assay-norms/1' }));
      const refused = await runCli(['norms', 'import', file], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /reliability needs format "assay-norms\/2"/);
      const missing = await runCli(['norms', 'show', 'no-such-group'], env);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /No norm group "no-such-group"/);
    });

    test(
      'deactivate: a portal loses its own choice, then the instrument its default; later completions get no norms, earlier ones keep theirs',
      { timeout: 120_000 },
      async () => {
        const portal = await server.tenant(undefined, `https://deactivate-${db}.example.test`);
        const file = join(server.dataDir, 'deactivate.json');
        const scales = Object.fromEntries(tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5 }]));
        writeFileSync(
          file,
          JSON.stringify({ format: 'assay-norms/1', name: 'To deactivate', instrument: 'TMA170', source: 'A test', sampleSize: 100, scales }),
        );
        const group = (await cli('norms', 'import', file, '--json')).id;
        const other = (await cli('norms', 'import', file, '--json')).id;
        await cli('norms', 'activate', group, '--json');
        await cli('norms', 'activate', other, '--portal-domain', portal.portalDomain, '--json');
        const own = await completed(portal, 7);
        assert.equal((await result(portal, own)).NormGroup.Id, other, "positive control: the portal's own choice is in force");

        const cleared = await cli('norms', 'deactivate', '--instrument', '0', '--portal-domain', portal.portalDomain, '--json');
        assert.deepEqual(cleared, { instrument: 0, portal: true, cleared: true });
        const underDefault = await completed(portal, 8);
        assert.equal((await result(portal, underDefault)).NormGroup.Id, group, 'back to the default');

        assert.deepEqual(await cli('norms', 'deactivate', '--instrument', '0', '--json'), { instrument: 0, portal: false, cleared: true });
        assert.ok(
          (await cli('norms', 'list', '--json')).every((g: any) => !(g.active && g.instrument === 'TMA170')),
          'no default left',
        );
        const none = await result(portal, await completed(portal, 9));
        assert.equal(none.NormGroup, null);
        assert.deepEqual([none.NormScores, none.NormScoresPercentage], [[], []]);
        assert.equal((await result(portal, own)).NormGroup.Id, other, 'an earlier result keeps the group it was completed under');
        assert.deepEqual(
          await cli('norms', 'deactivate', '--instrument', '0', '--json'),
          { instrument: 0, portal: false, cleared: false },
          'twice is no error',
        );
        const bad = await runCli(['norms', 'deactivate', '--instrument', '7'], env);
        assert.equal(bad.code, 1);
        assert.match(bad.stderr, /--instrument must be 0 \(TMA170\), 1 \(TMA312\) or 2 \(SPI\)/);
      },
    );
  },
);
