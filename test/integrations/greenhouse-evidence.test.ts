import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient } from '../helpers/http.js';
import { docsSendTest, greenhouseClient, greenhouseKeyFor } from '../helpers/greenhouse.js';
import { instruments } from '../helpers/results.js';
import { ROOT } from '../../src/platform/paths.js';

const spi = instruments.get(2)!;
const shipped = JSON.parse(readFileSync(join(ROOT, 'content', 'norms', 'spi-sapa.json'), 'utf8')) as {
  name: string;
  sampleSize: number;
  scales: Record<string, { reliability: { alpha: number } }>;
};
const DUTCH_NOTE = spi.languages!.translations!.nl!.note.en;
/** The standard normal's 95th percentile, from a table: a 90% band is ±z standard errors. */
const Z90 = 1.6448536;
const tenth = (x: number) => (Math.round(x * 10) / 10).toFixed(1);

/**
 * A sten's 90% band by hand, as docs/PSYCHOMETRICS.md defines it: sten ± z·SEM, SEM in stens
 * 2·√(1 − α) (stens have an SD of 2), clipped to 1–10, one decimal, printed low–high.
 */
function bandByHand(sten: number, alpha: number): string {
  const half = Z90 * 2 * Math.sqrt(1 - alpha);
  return `${tenth(Math.max(1, sten - half))}–${tenth(Math.min(10, sten + half))}`;
}

/** A fixed SPI candidate: every answer from 1 to 6 by the item's place, so scales land at different stens. */
const spiAnswer = (_name: string, i: number) => String(1 + ((i * 5 + Math.floor(i / 7)) % 6));

suiteOnEachDatabase(
  'Greenhouse metadata carries each sten with its evidence, never a simulated one; hostile input at the door',
  // EXAMPLE_NORMS: the TMA170's illustrative example is in force; the SPI has its shipped real group.
  { smtp: true, receiver: true, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000', EXAMPLE_NORMS: 'true' } },
  (ctx) => {
    let gh: ReturnType<typeof greenhouseClient>;
    before(async () => {
      gh = greenhouseClient(ctx.server.url, await greenhouseKeyFor(ctx.server, ctx.creds));
    });

    /** Orders `partnerTestId` through Greenhouse, takes it in a browser with `headers`, and returns test_status with the vendor endpoint's result. */
    async function takenViaGreenhouse(partnerTestId: string, person: string, headers: Record<string, string> = {}, answer?: (n: string, i: number) => string) {
      const ordered = await gh('/send_test', {
        method: 'POST',
        body: docsSendTest(ctx.receiver.url('/gh-evidence'), { partner_test_id: partnerTestId, person }),
      });
      assert.equal(ordered.status, 200);
      const id: string = ordered.body.partner_interview_id;
      await completeViaForms(new FormClient(ctx.server.url, headers), id, answer ? { answer } : {});
      const status = await gh(`/test_status?partner_interview_id=${id}`);
      assert.equal(status.status, 200);
      assert.equal(status.body.partner_status, 'complete');
      const vendor = (await apiClient(ctx.server.url, ctx.creds).get(`/api/candidateanalysisresult/${id}/en-GB`)).body;
      return { status: status.body, vendor };
    }

    test(
      "the SPI on its real group: each sten with the group's name and N, its 90% band and alpha worked out from spi-sapa.json; partner_score null",
      { timeout: 120_000 },
      async () => {
        const { status, vendor } = await takenViaGreenhouse('2', '7001', {}, spiAnswer);
        const m = status.metadata;
        assert.equal(status.partner_score, null);
        assert.equal(m['Norm Group'], shipped.name);
        assert.equal(m['Norm Group N'], shipped.sampleSize);
        assert.equal(vendor.NormScores.length, spi.scales.length, 'positive control: the vendor endpoint gives every sten');
        const stens = new Set<number>();
        for (const scale of spi.scales) {
          const name = scale.name.en;
          const sten = vendor.NormScores.find((s: { ID: number }) => s.ID === scale.number).Value;
          const alpha = shipped.scales[scale.id]!.reliability.alpha;
          assert.equal(m[`${name} (sten)`], sten, name);
          assert.equal(m[`${name} (sten 90% band)`], bandByHand(sten, alpha), `${name}: sten ${sten}, alpha ${alpha}`);
          assert.equal(m[`${name} (alpha)`], Math.round(alpha * 100) / 100, name);
          stens.add(sten);
        }
        assert.ok(stens.size >= 4, `the candidate spreads over several stens (${[...stens]})`);
        for (const v of Object.values(m)) assert.ok(v === null || ['string', 'number', 'boolean'].includes(typeof v), 'flat, primitives only');
        assert.equal(m.Note, undefined, 'taken in English: no translation note (the control for the Dutch test)');
      },
    );

    test('the SPI taken in Dutch: metadata carries the note that the translation has no norms of its own, beside the stens', { timeout: 120_000 }, async () => {
      const { status } = await takenViaGreenhouse('2', '7002', { 'accept-language': 'nl-NL,nl;q=0.9' }, spiAnswer);
      assert.equal(status.metadata.Note, DUTCH_NOTE);
      const first = spi.scales[0]!.name.en;
      assert.equal(typeof status.metadata[`${first} (sten)`], 'number');
      assert.match(String(status.metadata[`${first} (sten 90% band)`]), /^\d+\.\d–\d+\.\d$/);
    });

    test('the TMA170 on its illustrative example: no sten, band, N or any number in metadata, and Results says why', { timeout: 120_000 }, async () => {
      const { status, vendor } = await takenViaGreenhouse('0', '7003');
      assert.equal(vendor.NormGroup.Illustrative, true, 'positive control: the illustrative example was in force');
      const m = status.metadata;
      assert.deepEqual(
        Object.keys(m).filter((k) => /sten|band|alpha|\bN\b/.test(k)),
        [],
      );
      assert.deepEqual(
        Object.values(m).filter((v) => typeof v === 'number'),
        [],
      );
      assert.match(String(m.Results), /illustrative example built from simulated answers/);
      assert.match(String(m['Norm Group']), /illustrative example, not for selection/);
      assert.equal(status.partner_score, null);
    });

    test('a send_test body over the body limit gets 413 in the errors shape, and the door keeps answering', async () => {
      const body = docsSendTest(ctx.receiver.url('/gh-big'), { person: '7004' });
      const huge = await gh('/send_test', { method: 'POST', body: { ...body, sent_by: 'x'.repeat(80 * 1024) } });
      assert.equal(huge.status, 413);
      assert.deepEqual(Object.keys(huge.body), ['errors']);
      assert.match(huge.body.errors[0], /larger than/);
      // Positive control: the same order under the limit is taken.
      assert.equal((await gh('/send_test', { method: 'POST', body })).status, 200);
    });

    test("a burst of wrong keys gets 401 then 429 in the errors shape; another tenant's valid key from the same client keeps working", async () => {
      const from = '127.0.0.37';
      const limit = ctx.server.running.deps.config.auth.failuresPerMinute;
      const wrong = greenhouseClient(ctx.server.url, 'gh_wrong-key');
      const first = await wrong('/list_tests', { from });
      assert.equal(first.status, 401);
      const statuses: number[] = [];
      for (let i = 1; i <= limit; i++) statuses.push((await wrong('/list_tests', { from })).status);
      assert.equal(statuses.at(-1), 429, `within ${limit + 1} wrong keys: ${statuses}`);
      const locked = await wrong('/list_tests', { from });
      assert.equal(locked.status, 429);
      assert.deepEqual(Object.keys(locked.body), ['errors']);
      assert.equal(typeof locked.body.errors[0], 'string');
      assert.ok(Number(locked.headers.get('retry-after')) >= 1);
      const other = await ctx.server.tenant();
      const theirs = greenhouseClient(ctx.server.url, await greenhouseKeyFor(ctx.server, other));
      assert.equal((await theirs('/list_tests', { from })).status, 200);
    });
  },
);
