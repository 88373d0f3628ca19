import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders, type Credentials } from '../helpers/http.js';
import { readPdf } from '../helpers/pdf.js';
import { instruments, profileAnswers, takeTime } from '../helpers/results.js';
import type { TestServer } from '../helpers/server.js';
import { plain } from '../helpers/html.js';

const tma170 = instruments.get(0)!;
const NORMED_LISTS = ['NormScores', 'NormScoresPercentage', 'AptitudeScores', 'AptitudeScoresPercentage'] as const;
/** Phrases that compare a candidate with other people, in both languages; and the band labels, as the report prints them. */
const COMPARATIVE = /most people|meeste mensen|than (?:most|others|average)|dan (?:de meeste|gemiddeld|anderen)|average band|gemiddelde band|sten 4/i;
const BAND_CELL = /<td>(?:Low|High|Average|Laag|Hoog|Gemiddeld)<\/td>|class="band"/;
const BAND_HEADING = /\((?:Low|High|Average|Laag|Hoog|Gemiddeld)\)/;

suiteOnEachDatabase(
  "no simulated norm reaches the vendor's lists, and no comparison is made without a norm group",
  { tenant: false },
  ({ server: fresh, another }) => {
    let examples: TestServer;
    before(async () => {
      examples = await another({ EXAMPLE_NORMS: 'true' });
    });

    async function completed(server: TestServer, creds: Credentials, client = new FormClient(server.url)) {
      const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
      const { answer } = profileAnswers(tma170, 3);
      const end = await completeViaForms(client, a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
      return { ...a, end, result: async () => (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body };
    }

    test('a fresh install has no active norm group: the sten and percentile lists are empty and Note says why', async () => {
      const r = await (await completed(fresh, await fresh.tenant())).result();
      assert.equal(r.NormGroup, null);
      for (const list of NORMED_LISTS) assert.deepEqual(r[list], [], list);
      assert.equal(r.NormScoreScales.length, tma170.scales.length, 'positive control: the raw scores are there');
      assert.match(r.Note, /No norm group was in force/);
      assert.match(r.Note, /no validation evidence/, 'the competences are said to be a model');
    });

    test('an illustrative group in force never fills the lists; the report and the feedback page carry the warning', async () => {
      const creds = (await examples.tenant()) as Credentials & { apiKeyId: string };
      const set = await runCli(['portal', 'set', '--key', creds.apiKeyId, '--candidate-feedback', 'on', '--json'], {
        DATABASE_URL: examples.databaseUrl,
        DATA_DIR: examples.dataDir,
      });
      assert.equal(set.code, 0, set.stderr);
      const client = new FormClient(examples.url);
      const a = await completed(examples, creds, client);
      const r = await a.result();
      assert.equal(r.NormGroup.Illustrative, true, 'positive control: the example group was in force');
      for (const list of NORMED_LISTS) assert.deepEqual(r[list], [], list);
      assert.match(r.Note, /illustrative example built from simulated answers/);
      const status = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data;
      assert.equal(status.NormGroup.Illustrative, true, "Assay's own fields name the group, with its flag");

      const report = await fetch(`${examples.url}/api/anonymous/assessment/${a.id}/report?lang=en`, { headers: authHeaders(creds) });
      const reportHtml = await report.text();
      assert.match(reportHtml, /<p class="notice">This norm group is an illustrative example built from simulated answers/);
      assert.match(reportHtml, BAND_CELL, 'a normed report bands its scores: the check below can see a band');
      const feedback = await client.get(a.end.location!);
      assert.match(feedback.html, /<p class="notice">These texts compare you with an illustrative example group/);
    });

    test('the report without a norm group makes no comparison, in English and in Dutch, on the page and in the PDF', async () => {
      const creds = await fresh.tenant();
      const a = await completed(fresh, creds);
      const get = (query: string) => fetch(`${fresh.url}/api/anonymous/assessment/${a.id}/report${query}`, { headers: authHeaders(creds) });
      for (const lang of ['en', 'nl'] as const) {
        const html = await (await get(`?lang=${lang}`)).text();
        const text = plain(html);
        assert.doesNotMatch(text, COMPARATIVE, lang);
        assert.doesNotMatch(html, BAND_CELL, lang);
        assert.doesNotMatch(text, BAND_HEADING, lang);
        // Positive control: the scale descriptions stand where the band texts would.
        assert.ok(text.includes(tma170.scales[0]!.description[lang]), `${lang}: what the scale measures`);
        assert.match(text, lang === 'en' ? /not norm-referenced/ : /niet genormeerd/);
      }
      const pdf = await readPdf(new Uint8Array(await (await get('?format=pdf&lang=en')).arrayBuffer()));
      const all = pdf.text.join(' ').replace(/\s+/g, ' ');
      assert.ok(all.includes('not norm-referenced'), 'positive control: the PDF was read');
      assert.doesNotMatch(all, COMPARATIVE);
      assert.doesNotMatch(all, BAND_HEADING);
    });

    test('the demo tenant, and only it, gets the illustrative examples as its own choice', async () => {
      const demo = await another({ DEMO_TENANT: 'true' });
      try {
        const store = demo.running.deps.store;
        const choices = await store.db
          .selectFrom('portal_norms')
          .innerJoin('api_keys', 'api_keys.id', 'portal_norms.api_key_id')
          .innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
          .select(['tenants.name', 'portal_norms.norm_group_id'])
          .execute();
        assert.deepEqual(choices.map((c) => c.name).sort(), ['demo', 'demo'], "one choice per instrument, both the demo portal's");
        assert.ok(choices.every((c) => c.norm_group_id.startsWith('example-')));
        const active = await store.db.selectFrom('norm_groups').select(['id', 'illustrative']).where('active', '=', 1).execute();
        assert.deepEqual(
          active,
          [{ id: 'spi-sapa-2.1.0', illustrative: 0 }],
          "no illustrative group is active for anyone else: only the SPI's shipped real one",
        );
        const other = await completed(demo, await demo.tenant());
        assert.equal((await other.result()).NormGroup, null);
      } finally {
        await demo.stop();
      }
    });
  },
);
