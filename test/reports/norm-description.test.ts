import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders } from '../helpers/http.js';
import { plain } from '../helpers/html.js';
import { readPdf } from '../helpers/pdf.js';
import { instruments, takeTime } from '../helpers/results.js';

const tma170 = instruments.get(0)!;
const words = (x: string) => x.replace(/\s+/g, ' ').trim();

const EN = 'Described in English: 400 test applicants for office work.';
const NL = 'In het Nederlands beschreven: 400 testsollicitanten voor kantoorwerk.';
const SOURCE = 'Only a technical account: exported by a test script, 3 rows left out, N = 400.';

// No example norms: the TMA170 has no group until the suite activates one.
suiteOnEachDatabase(
  "the report shows the norm group's description in its language, else the English one, else the source",
  { env: { EXAMPLE_NORMS: 'false' }, timeout: 180_000 },
  ({ db, server, creds, cliEnv }) => {
    /** Imports a TMA170 norm file with these extra fields and makes it the default; returns its id. */
    async function groupInForce(name: string, extra: Record<string, unknown>): Promise<string> {
      const file = join(server.dataDir, `${name}.json`);
      const scales = Object.fromEntries(tma170.scales.map((s) => [s.id, { mean: 3, sd: 0.5 }]));
      writeFileSync(
        file,
        JSON.stringify({ format: 'assay-norms/2', name: `${name} ${db}`, instrument: 'TMA170', source: SOURCE, sampleSize: 400, scales, ...extra }),
      );
      const imported = await runCli(['norms', 'import', file, '--json'], cliEnv);
      assert.equal(imported.code, 0, imported.stderr);
      const id = JSON.parse(imported.stdout).id as string;
      const activated = await runCli(['norms', 'activate', id, '--json'], cliEnv);
      assert.equal(activated.code, 0, activated.stderr);
      return id;
    }

    /** A completed TMA170 under the group in force: its report page and PDF text, in each language. */
    async function reports(groupId: string): Promise<Record<'en' | 'nl', { page: string; pdf: string }>> {
      const a = await newAssessment(server.url, creds);
      await completeViaForms(new FormClient(server.url), a.id, { beforePost: takeTime(server.running.deps.store, a.id) });
      const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      assert.equal(r.NormGroup?.Id, groupId, 'positive control: the group was in force');
      assert.equal(r.NormGroup.Source, SOURCE, 'the API view keeps the whole source');
      const out = {} as Record<'en' | 'nl', { page: string; pdf: string }>;
      for (const lang of ['en', 'nl'] as const) {
        const page = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=${lang}`, { headers: authHeaders(creds) });
        assert.equal(page.status, 200);
        const pdf = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?format=pdf&lang=${lang}`, { headers: authHeaders(creds) });
        assert.equal(pdf.status, 200);
        out[lang] = { page: words(plain(await page.text())), pdf: words((await readPdf(Buffer.from(await pdf.arrayBuffer()))).text.join(' ')) };
      }
      return out;
    }

    test('with English and Dutch descriptions: the Dutch report shows the Dutch, the English one the English; neither shows the source', async () => {
      const id = await groupInForce('Both languages', { description: { en: EN, nl: NL } });
      const r = await reports(id);
      for (const what of ['page', 'pdf'] as const) {
        assert.ok(r.nl[what].includes(NL), `nl ${what}: ${r.nl[what].slice(0, 600)}`);
        assert.ok(!r.nl[what].includes(EN), `nl ${what} has not the English`);
        assert.ok(r.en[what].includes(EN), `en ${what}: ${r.en[what].slice(0, 600)}`);
        assert.ok(!r.en[what].includes(NL), `en ${what} has not the Dutch`);
        for (const lang of ['en', 'nl'] as const) assert.ok(!r[lang][what].includes(SOURCE), `${lang} ${what} has not the source`);
      }
    });

    test('with an English description only: the Dutch report shows the English one, not the source', async () => {
      const id = await groupInForce('English only', { description: { en: EN } });
      const r = await reports(id);
      for (const what of ['page', 'pdf'] as const)
        for (const lang of ['en', 'nl'] as const) {
          assert.ok(r[lang][what].includes(EN), `${lang} ${what}: ${r[lang][what].slice(0, 600)}`);
          assert.ok(!r[lang][what].includes(SOURCE), `${lang} ${what} has not the source`);
        }
    });

    test('with a Dutch description only: the Dutch report shows it, the English one the source', async () => {
      const id = await groupInForce('Dutch only', { description: { nl: NL } });
      const r = await reports(id);
      for (const what of ['page', 'pdf'] as const) {
        assert.ok(r.nl[what].includes(NL) && !r.nl[what].includes(SOURCE), `nl ${what}: ${r.nl[what].slice(0, 600)}`);
        assert.ok(r.en[what].includes(SOURCE) && !r.en[what].includes(NL), `en ${what}: ${r.en[what].slice(0, 600)}`);
      }
    });

    test('without a description: both reports show the whole source, as before', async () => {
      const id = await groupInForce('No description', {});
      const r = await reports(id);
      for (const what of ['page', 'pdf'] as const)
        for (const lang of ['en', 'nl'] as const) {
          assert.ok(r[lang][what].includes(SOURCE), `${lang} ${what}: ${r[lang][what].slice(0, 600)}`);
          assert.ok(!r[lang][what].includes(EN) && !r[lang][what].includes(NL), `${lang} ${what} has no description`);
        }
    });
  },
);

const SHIPPED = `spi-sapa-${instruments.get(2)!.version}`;
const shippedDescription = (JSON.parse(readFileSync(join(ROOT, 'content', 'norms', 'spi-sapa.json'), 'utf8')) as { description: { en: string; nl: string } })
  .description;

suiteOnEachDatabase('a shipped norm group stored before norm files had descriptions', { tenant: false }, ({ server, cliEnv, another }) => {
  const shown = async () => {
    const r = await runCli(['norms', 'show', SHIPPED, '--json'], cliEnv);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { description?: unknown }).description;
  };

  test('gains the description of its shipped file at the next start, its tables unchanged', async () => {
    assert.deepEqual(await shown(), shippedDescription, 'positive control: stored with it on a first start');
    const tables = async () =>
      (await server.running.deps.store.db.selectFrom('norm_groups').select('norms').where('id', '=', SHIPPED).executeTakeFirstOrThrow()).norms;
    const before = await tables();
    await server.running.deps.store.write((trx) => trx.updateTable('norm_groups').set({ description: null }).where('id', '=', SHIPPED).execute());
    assert.equal(await shown(), undefined, 'as stored before descriptions');
    await another({}, { reuse: { dataDir: server.dataDir, databaseUrl: server.databaseUrl } });
    assert.deepEqual(await shown(), shippedDescription);
    assert.equal(await tables(), before);
  });
});
