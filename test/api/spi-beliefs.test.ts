import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { EXAMPLE_NORMS_DIR } from '../../src/platform/paths.js';
import { activateNormGroup, findNormGroup, insertNormGroup, setPortalNormGroup } from '../../src/measurement/norms-store.js';
import { ensureShippedNorms } from '../../src/measurement/shipped-norms.js';
import type { Instruments } from '../../src/measurement/instruments/load.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, authHeaders, type Credentials } from '../helpers/http.js';
import { takeTime } from '../helpers/results.js';
import { plain } from '../helpers/html.js';
import { OLD_TEXTS, SPECIAL_WORDS } from '../helpers/spi-removed.js';

const answer = (_name: string, i: number) => String(1 + ((i * 5 + Math.floor(i / 7)) % 6));
/** The statements of a questionnaire page, as the candidate reads them. */
const statements = (html: string) => [...html.matchAll(/<span class="item-text">([\s\S]*?)<\/span>/g)].map((m) => plain(m[1]!).trim());
const flagged = (texts: readonly string[]) => texts.filter((t) => SPECIAL_WORDS.test(t));
type Score = { scale: string; raw: number; mean: number; items: number };

suiteOnEachDatabase(
  'the SPI asks nothing about beliefs, and a result of its earlier content version keeps its scores and pinned group',
  {},
  ({ server, creds }) => {
    const deps = () => server.running.deps;

    async function completed(c: Credentials, headers: Record<string, string> = {}, onPage?: (html: string) => void) {
      const a = await newAssessment(server.url, c, { AssessmentType: 2 });
      const client = new FormClient(server.url, headers);
      await completeViaForms(client, a.id, {
        answer,
        beforePost: async (location) => {
          onPage?.((await client.get(location)).html);
          await takeTime(deps().store, a.id)(location);
        },
      });
      return a;
    }

    /**
     * What release 1.0.0 left behind, simulated: its adults' group (here the 2.1.0 tables with another
     * Authoritarianism table and Conservatism's) and an assessment completed under it, whose stored
     * scores hold a 5-item Authoritarianism mean and a Conservatism score.
     */
    async function oldVersionAssessment() {
      const store = deps().store;
      for (const file of ['spi-sapa', 'spi-sapa-female']) {
        const now = (await findNormGroup(store, `${file}-2.1.0`))!;
        const scales = { ...now.table.scales, 'spi-authoritarianism': { mean: 3.65, sd: 1 }, 'spi-conservatism': { mean: 2.99, sd: 1.34 } };
        await insertNormGroup(store, { ...now, id: `${file}-1.0.0`, contentVersion: '1.0.0', table: { ...now.table, scales } });
      }
      const a = await completed(creds);
      const row = await store.db.selectFrom('assessments').select('scores').where('analysis_id', '=', a.id).executeTakeFirstOrThrow();
      const scores = (JSON.parse(row.scores!) as Score[]).map((s) => (s.scale === 'spi-authoritarianism' ? { ...s, raw: 22, mean: 4.4, items: 5 } : s));
      scores.push({ scale: 'spi-conservatism', raw: 17, mean: 3.4, items: 5 });
      await store.write((trx) =>
        trx
          .updateTable('assessments')
          .set({ scores: JSON.stringify(scores), content_version: '1.0.0', norm_group_id: 'spi-sapa-1.0.0' })
          .where('analysis_id', '=', a.id)
          .execute(),
      );
      return { ...a, scores };
    }

    test('a walk through the SPI over HTTP, in English and in Dutch, shows no statement with a word of religion, politics, national symbols, crime policy or health; the same check catches each removed statement', async () => {
      for (const [lang, headers] of [
        ['en', {}],
        ['nl', { 'accept-language': 'nl-NL,nl;q=0.9' }],
      ] as const) {
        const seen: string[] = [];
        await completed(creds, headers, (html) => seen.push(...statements(html)));
        assert.equal(new Set(seen).size, 120, `${lang}: every statement was read`);
        assert.deepEqual(flagged(seen), [], lang);
        // Positive control: the removed statements, in the page's own markup, would be caught.
        const old = OLD_TEXTS.map(([en, nl]) => `<legend><span class="item-text">${lang === 'en' ? en.replace("'", '&#39;') : nl}</span></legend>`);
        assert.equal(flagged(statements(old.join('\n'))).length, OLD_TEXTS.length, lang);
      }
    });

    test('an assessment completed under content version 1.0.0 is read from its stored scores against its pinned group: no Conservatism shown, no re-scoring, no form note', async () => {
      const a = await oldVersionAssessment();
      const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      assert.equal(r.NormGroup.Id, 'spi-sapa-1.0.0');
      assert.equal(r.NormScoreScales.length, 31);
      assert.ok(!r.NormScoreScales.some((s: any) => /CONSERVATISM/.test(s.ExternalCode)), 'the scale the instrument no longer has is not shown');
      const stored = new Map(a.scores.map((s) => [s.scale.toUpperCase().replace(/-/g, '_'), s.mean]));
      for (const s of r.NormScoreScales) assert.equal(s.Value, stored.get(s.ExternalCode), s.ExternalCode);
      // 4.4 is no mean of 3 items: the stored 5-item score, not one made again from the answers.
      const i = r.NormScoreScales.findIndex((s: any) => s.ExternalCode === 'SPI_AUTHORITARIANISM');
      assert.ok(!Number.isInteger(r.NormScoreScales[i].Value * 3));
      // Against the pinned table (mean 3.65, SD 1, no distribution): z = .75, sten 5.5 + 1.5 = 7, percentile 100·Φ(.75) = 77.
      assert.deepEqual([r.NormScores[i].Value, r.NormScoresPercentage[i].Value], [7, 77]);
      // Positive control: pinned to the group in force now, the same stored score reads otherwise.
      const pin = (group: string) =>
        deps().store.write((trx) => trx.updateTable('assessments').set({ norm_group_id: group }).where('analysis_id', '=', a.id).execute());
      await pin('spi-sapa-2.1.0');
      const now = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      assert.equal(now.NormScoreScales[i].Value, 4.4);
      assert.notDeepEqual([now.NormScores[i].Value, now.NormScoresPercentage[i].Value], [7, 77]);
      await pin('spi-sapa-1.0.0');
      // The row keeps what was stored, Conservatism too.
      const row = await deps()
        .store.db.selectFrom('assessments')
        .select(['scores', 'content_version'])
        .where('analysis_id', '=', a.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([JSON.parse(row.scores!), row.content_version], [a.scores, '1.0.0']);

      const report = async (id: string) => {
        const res = await fetch(`${server.url}/api/anonymous/assessment/${id}/report?lang=en`, { headers: authHeaders(creds) });
        assert.equal(res.status, 200);
        return plain(await res.text());
      };
      const old = await report(a.id);
      assert.match(old, /Authoritarianism (†[^0-9]*)?7 77 4\.40/);
      assert.doesNotMatch(old, /Conservatism|Form taken/);
      // Positive control: a result of the version loaded now carries the form note.
      const fresh = await report((await completed(creds)).id);
      assert.match(
        fresh,
        /Form taken: 120 of the 135 statements of the published SAPA Personality Inventory \(psychTools::spi\.keys\)\. Left out: the Conservatism scale \(5 statements\)\./,
      );
      assert.match(fresh, /Authoritarianism 3 of 5 \(r = \.91\)/);
    });

    test("a shipped group of a newer content version takes the earlier group's place as default and as a portal's choice; an operator's own group and a pinned result stay", async () => {
      const { store, instruments, competences } = deps();
      const a = await oldVersionAssessment();
      await activateNormGroup(store, 'spi-sapa-1.0.0');
      const women = await server.tenant();
      await setPortalNormGroup(store, women.apiKeyId, 'spi-sapa-female-1.0.0');
      const own = await server.tenant();
      await insertNormGroup(store, { ...(await findNormGroup(store, 'spi-sapa-1.0.0'))!, id: 'own-spi', name: 'An operator’s own' });
      await setPortalNormGroup(store, own.apiKeyId, 'own-spi');
      const inForce = async (c: Credentials) =>
        (await apiClient(server.url, c).get('/api/anonymous/assessmenttypes')).body.Data.find((x: any) => x.AssessmentType === 2).NormGroup.Id;
      // Positive control: before, the earlier groups are in force.
      assert.deepEqual([await inForce(creds), await inForce(women), await inForce(own)], ['spi-sapa-1.0.0', 'spi-sapa-female-1.0.0', 'own-spi']);

      const next: Instruments = new Map([...instruments].map(([type, i]) => [type, type === 2 ? { ...i, version: '2.0.1' } : i]));
      await ensureShippedNorms(store, next, competences, EXAMPLE_NORMS_DIR);
      assert.deepEqual([await inForce(creds), await inForce(women), await inForce(own)], ['spi-sapa-2.0.1', 'spi-sapa-female-2.0.1', 'own-spi']);
      const r = (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
      assert.equal(r.NormGroup.Id, 'spi-sapa-1.0.0', 'the pinned group stays');
    });
  },
);
