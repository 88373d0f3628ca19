import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';

function bench(args: string[]): Promise<any> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [join(ROOT, 'dist', 'bench', 'run.js'), ...args], { timeout: 180_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

/** Keeps `npm run bench` working; it measures nothing worth keeping and asserts no timing. */
describe('the benchmark suite', () => {
  test('a smoke run of a second or two completes and reports every measurement', async () => {
    const summary = await bench(['--smoke']);
    for (const key of ['candidate', 'assessment', 'portal']) {
      assert.ok(summary[key].rps > 0, key);
      assert.ok(summary[key].ratio > 0, key);
    }
    assert.ok(summary.ceiling > 0);
    assert.equal(summary.bad, 0, 'no errors or non-2xx responses');
    assert.equal(summary.latency.count, 5);
    assert.ok(summary.latency.p50 > 0);
    assert.ok(summary.rss > 0);
  });

  test('a smoke mail burst: 20 invitations, each delivered to the SMTP server, no error', async () => {
    const s = await bench(['--mail', '--smoke']);
    assert.equal(s.invited, 20);
    assert.equal(s.delivered, 20);
    assert.equal(s.burst.bad + s.during.bad, 0);
    assert.ok(s.perSecond > 0 && s.burst.p99 >= s.burst.p50);
  });

  test('a smoke norm build: 300 respondents × 135 items through --from-csv and buildNormTable, each timed', async () => {
    const s = await bench(['--norms-build', '--smoke']);
    assert.deepEqual([s.respondents, s.items, s.used + s.flagged, s.rounds], [300, 135, 300, 1]);
    assert.ok(s.used > 0 && s.csv.min > 0 && s.csv.max >= s.csv.min && s.table.min > 0, JSON.stringify(s));
  });

  test('a smoke list: 2,000 assessments and 1,000 of another tenant, three pages of each filter over HTTP and through the finder', async () => {
    const s = await bench(['--list', '--smoke']);
    assert.deepEqual([s.assessments, s.others], [2_000, 1_000]);
    assert.equal(s.scenarios.length, 13);
    for (const x of s.scenarios) assert.ok(x.pages === 3 && x.p95 > 0 && x.queryP95 >= 0 && x.max >= x.p95, JSON.stringify(x));
    assert.equal(s.scenarios.find((x: { name: string }) => x.name === 'no filter').rows, 300, 'three full pages of 100');
    assert.equal(s.scenarios.find((x: { name: string }) => x.name === 'CompletedSince tomorrow (none)').rows, 0);
  });

  test('a smoke console list: 2,000 candidates, three first pages and counts of each view, before and after the suggested indexes', async () => {
    const s = await bench(['--console-list', '--smoke']);
    assert.equal(s.assessments, 2_000);
    for (const phase of [s.migrated, s.indexed]) {
      assert.equal(phase.length, 12);
      for (const x of phase) assert.ok(x.pageP95 > 0 && x.countsP95 > 0 && x.bothP95 >= x.pageP95, JSON.stringify(x));
      assert.equal(phase.find((x: { name: string }) => x.name === 'first page').rows, 150, 'three full pages of 50');
    }
  });

  test('a smoke walk: bin/assay portal walk finishes each instrument once, each timed', async () => {
    const s = await bench(['--walk', '--smoke']);
    assert.equal(s.failed, 0);
    assert.deepEqual(Object.keys(s.seconds), ['TMA170', 'TMA312', 'SPI']);
    for (const t of Object.values(s.seconds) as Array<{ min: number; max: number }>) assert.ok(t.min > 0 && t.max >= t.min, JSON.stringify(s));
  });

  test('a smoke campaign: five candidates finish TMA170 through the forms, each webhook arrives, the reads answer', async () => {
    const tma170 = JSON.parse(readFileSync(join(ROOT, 'content', 'instruments', 'tma170.json'), 'utf8')) as { items: unknown[]; itemsPerPage: number };
    // The start page, every questionnaire page, and the confirmation: one post each.
    const postsPerCandidate = 2 + Math.ceil(tma170.items.length / tma170.itemsPerPage);
    const s = await bench(['--campaign', '--smoke']);
    assert.equal(s.candidates, 5);
    assert.equal(s.finished, 5);
    assert.deepEqual(s.errors, {}, 'every GET answered 200 and every POST 303');
    assert.equal(s.timeouts, 0);
    assert.equal(s.alive, true);
    assert.equal(s.rounds.length, 1);
    assert.ok(s.rounds[0].ceiling > 0 && s.rounds[0].assay > 0 && s.rounds[0].cpuMsPerPage > 0);
    assert.ok(s.rounds[0].ceilingPost.p50 > 0 && s.rounds[0].ceilingPost.p99 >= s.rounds[0].ceilingPost.p50, JSON.stringify(s.rounds[0].ceilingPost));
    const page = s.rounds[0].pageCeiling;
    assert.ok(page.pagesPerSecond > 0 && page.clientCpuUs > 0, JSON.stringify(page));
    assert.ok(
      [page.serverCpuUs, page.machineCpuUs].every((x) => Number.isFinite(x) && x >= 0),
      JSON.stringify(page),
    );
    assert.ok(page.post.p50 > 0 && page.post.p99 >= page.post.p50, JSON.stringify(page));
    assert.ok(s.rounds[0].clientDelay.p50 >= 0 && s.rounds[0].clientDelay.p99 >= s.rounds[0].clientDelay.p50, JSON.stringify(s.rounds[0].clientDelay));
    assert.equal(s.postsPerSecond, s.rounds[0].assay);
    assert.deepEqual({ expected: s.webhooks.expected, received: s.webhooks.received }, { expected: 5, received: 5 });
    assert.ok(s.webhooks.p50 > 0 && s.webhooks.p99 >= s.webhooks.p50);
    assert.ok(s.post.p99 >= s.post.p50 && s.post.p50 > 0);
    assert.ok(s.rss > 0);
    assert.equal(s.pagesPerCandidate, postsPerCandidate);
    for (const read of ['results', 'report'] as const) {
      assert.ok(s.reads[read].rps > 0 && s.reads[read].ceiling > 0, read);
      assert.equal(s.reads[read].bad, 0, read);
      assert.ok(s.reads[read].cpuUs.bare > 0 && s.reads[read].cpuUs.assay > 0, `${read}: ${JSON.stringify(s.reads[read].cpuUs)}`);
    }
    const floor = s.reads.results.floor;
    assert.ok(
      floor && floor.rps > 0 && floor.ratio > 0 && s.reads.results.cpuUs.floor > 0,
      `Fastify with Assay's request log alone answered: ${JSON.stringify(floor)}`,
    );
    assert.ok(s.reads.results.bytes > 1_000, 'the results document of a completed assessment');
    assert.ok(s.reads.report.bytes > s.reads.results.bytes, 'the HTML report is larger than the results');
    assert.equal(s.reads.pdf.bad, 0);
    // One PDF first, timed apart; then each other finished assessment's PDF once.
    assert.deepEqual({ pdfs: s.reads.pdf.pdfs, first: s.reads.pdf.first?.pdfs }, { pdfs: 4, first: 1 });
    assert.ok(s.reads.pdf.p99 > 0);
    // The peak is the process's high-water mark, so it cannot be below the campaign's.
    assert.ok(s.reads.pdf.rss >= s.rss, `${s.reads.pdf.rss} MB after the PDFs, ${s.rss} MB after the campaign`);
  });
});
