import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { findNormGroup, insertNormGroup, setPortalNormGroup } from '../../src/measurement/norms-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient } from '../helpers/http.js';
import { activateTestNorms } from '../helpers/norms.js';

/** The instrument files as written, read apart from Assay's loader. */
const file = (name: string) => JSON.parse(readFileSync(join(ROOT, 'content', 'instruments', `${name}.json`), 'utf8'));
const spiFile = file('spi');
const tma170File = file('tma170');
const spiNorms = JSON.parse(readFileSync(join(ROOT, 'content', 'norms', 'spi-sapa.json'), 'utf8'));

suiteOnEachDatabase('GET /api/anonymous/assessmenttypes: the catalogue of what a caller may order', {}, ({ server, creds, api }) => {
  test('each instrument with its names, items, minutes, languages, scales, and the norm group in force for this caller with its N', async () => {
    const res = await api.get('/api/anonymous/assessmenttypes');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual([res.body.StatusCode, res.body.Message], [200, null]);
    const byType = new Map(res.body.Data.map((x: any) => [x.AssessmentType, x]));
    assert.deepEqual([...byType.keys()], [0, 1, 2]);

    const spi: any = byType.get(2);
    assert.deepEqual([spi.Code, spi.Name, spi.ContentVersion], ['SPI', spiFile.name, spiFile.version]);
    assert.deepEqual([spi.ItemCount, spi.EstimatedMinutes, spi.ResponseScale], [spiFile.items.length, spiFile.estimatedMinutes, { Min: 1, Max: 6 }]);
    assert.equal(spi.ItemCount, 120);
    assert.deepEqual(spi.Languages, [
      { Language: 'nl', Translation: true, Note: spiFile.languages.translations.nl.note.en },
      { Language: 'en', Translation: false, Note: null },
    ]);
    assert.equal(spi.Scales.length, 31);
    // Its Fairness, the norm group's figures, is checked against the norm file in test/api/spi-fairness.
    const { Fairness: _fairness, ...compassion } = spi.Scales[5];
    assert.deepEqual(compassion, { ID: 6, ExternalCode: 'SPI_COMPASSION', Name: spiFile.scales[5].name, Items: 5, Published: { Items: 5, R: 1 } });
    // The form against the published SPI: what it leaves out, and per scale its items here and there.
    assert.deepEqual(spi.PublishedForm, {
      Source: 'psychTools::spi.keys',
      Items: 135,
      Scales: 32,
      SampleSize: 3365,
      LeftOut: [{ Key: 'Conservatism', Items: 5 }],
    });
    const keyed = (id: string) => spiFile.items.filter((i: any) => i.scale === id || (i.alsoScales ?? []).some((a: any) => a.scale === id)).length;
    for (const [i, s] of spi.Scales.entries()) {
      const f = spiFile.scales[i];
      assert.deepEqual([s.Items, s.Published], [keyed(f.id), { Items: f.published.items, R: f.published.r }], f.id);
    }
    const shortened = spi.Scales.filter((s: any) => s.Items < s.Published.Items).map((s: any) => s.ExternalCode);
    // Positive control: the shortened scales are there to be seen, the unchanged ones too.
    assert.ok(shortened.includes('SPI_AUTHORITARIANISM') && shortened.length < spi.Scales.length, shortened.join());
    assert.ok(!spi.Scales.some((s: any) => /CONSERVATISM/.test(s.ExternalCode)), 'no Conservatism scale');
    assert.deepEqual(
      spi.NormGroup,
      { Id: 'spi-sapa-2.1.0', Name: spiNorms.name, SampleSize: spiNorms.sampleSize, Illustrative: false },
      'the shipped group, active on a new server',
    );

    const tma170: any = byType.get(0);
    assert.deepEqual(
      [tma170.Code, tma170.ItemCount, tma170.EstimatedMinutes, tma170.Scales.length],
      ['TMA170', tma170File.items.length, tma170File.estimatedMinutes, 26],
    );
    assert.deepEqual(
      tma170.Languages.map((l: any) => [l.Language, l.Translation]),
      [
        ['nl', false],
        ['en', false],
      ],
    );
    assert.equal(tma170.NormGroup, null, 'no TMA170 group is in force on a new server');
    assert.deepEqual([tma170.PublishedForm, tma170.Scales[0].Published], [null, null], 'written for Assay: no published form');
  });

  test("the norm group follows the caller's portal: its own choice, else the instrument's default", async () => {
    const store = server.running.deps.store;
    await activateTestNorms(store);
    const own = await insertNormGroup(store, { ...(await findNormGroup(store, 'test-tma170'))!, id: 'own-tma170', name: 'A portal of its own' });
    const other = await server.tenant();
    await setPortalNormGroup(store, other.apiKeyId, own);
    const group = async (c: typeof creds, type: number) =>
      (await apiClient(server.url, c).get('/api/anonymous/assessmenttypes')).body.Data.find((x: any) => x.AssessmentType === type).NormGroup;
    assert.equal((await group(creds, 0)).Id, 'test-tma170', 'the default, once one is active');
    assert.deepEqual(await group(other, 0), { Id: own, Name: 'A portal of its own', SampleSize: 1000, Illustrative: false }, "the portal's own choice");
    assert.equal((await group(other, 1)).Id, 'test-tma312', 'no choice of its own for TMA312: the default');
  });

  test('refused without the credentials, with the error envelope', async () => {
    const res = await fetch(`${server.url}/api/anonymous/assessmenttypes`);
    assert.equal(res.status, 401);
    const body = await res.json();
    assert.ok(typeof body.error?.code === 'string', JSON.stringify(body));
    const wrongKey = await apiClient(server.url, { ...creds, apiKey: 'not-a-key' }).get('/api/anonymous/assessmenttypes');
    assert.equal(wrongKey.body.error.code, 'InvalidApiKey');
    assert.ok(!JSON.stringify(wrongKey.body).includes('SAPA'), 'no catalogue in a refusal');
  });
});
