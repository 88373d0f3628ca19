import { monitorEventLoopDelay } from 'node:perf_hooks';
import { apiClient, type Credentials } from '../test/helpers/http.js';
import { campaign, formCeiling, type CampaignResult } from './campaign.js';
import { reads, type ReadsSummary } from './campaign-reads.js';
import { cpuMs, machineBusyMs, threadCpuMs } from './cpu.js';
import { type Child } from './processes.js';
import { mean } from './stats.js';

/** The rounds together: sums of counts, and the worst round's latencies (as each is described on CampaignResult). */
export interface CampaignSummary extends Pick<
  CampaignResult,
  'candidates' | 'postsPerSecond' | 'post' | 'first' | 'errors' | 'errorCount' | 'shedWithoutRetryAfter' | 'timeouts' | 'finished' | 'webhooks'
> {
  /** Page posts each candidate made: start, every questionnaire page, confirmation. */
  pagesPerCandidate: number;
  /**
   * `ceilingPost`: the bare server's post latency at the same concurrency, a floor no server on
   * this machine beats. `clientDelay`: the load generator's own event-loop delay during the
   * campaign, which every latency it measures includes.
   */
  rounds: Array<{
    ceiling: number;
    ceilingPost: { p50: number; p99: number };
    pageCeiling: PageCeiling;
    assay: number;
    ratio: number;
    cpuMsPerPage: number;
    clientDelay: { p50: number; p99: number };
  }>;
  ratio: number;
  rss: number;
  alive: boolean;
  reads?: ReadsSummary;
}

/**
 * The bare server answering the campaign's whole traffic (each page's GET, with a real page's
 * HTML, and its POST), the load generator making each form from the page as it does for Assay:
 * pages a second, the load generator's CPU per page and the bare server's, in µs. What is left of
 * the machine for a server at a given rate follows from these.
 */
export interface PageCeiling {
  pagesPerSecond: number;
  clientCpuUs: number;
  serverCpuUs: number;
  /** Busy CPU of the whole machine per page (all cores, the kernel's share included). */
  machineCpuUs: number;
  /** Its posts' latency, each connection's first left out, in ms. */
  post: { p50: number; p99: number };
}

const worst = (xs: CampaignResult[], f: (r: CampaignResult) => number) => Math.max(...xs.map(f));

/**
 * `--campaign`: A B A B, a bare form ceiling then a campaign of `candidates` fresh candidates,
 * `rounds` times; then the reads, unless `reads` is false.
 */
export async function campaignMode(
  assay: Child,
  bare: Child,
  creds: Credentials,
  opts: { candidates: number; rounds: number; deadlineMs: number; reads: boolean; readSeconds: number },
): Promise<CampaignSummary> {
  const api = apiClient(assay.url, creds);
  // Warm-up: JIT and caches on both sides; it also yields a real page's form for the ceiling.
  const warm = await campaign(assay.url, api, { candidates: 20, tag: `warm-${Date.now()}`, deadlineMs: opts.deadlineMs });
  if (warm.finished !== 20) throw new Error(`warm-up campaign failed: ${JSON.stringify(warm.errors)}`);
  const postsPerCandidate = Math.round(warm.posts / warm.finished);
  const put = await fetch(`${bare.url}/page`, { method: 'PUT', body: warm.samplePage });
  if (put.status !== 204 || !warm.samplePage.includes('name="_csrf"')) throw new Error(`the bare server did not take a real page: ${put.status}`);
  await formCeiling(bare.url, { clients: 20, postsPerClient: postsPerCandidate, body: warm.samplePostBody });
  await formCeiling(bare.url, { clients: 20, postsPerClient: postsPerCandidate, pages: true });

  const runs: CampaignResult[] = [];
  const rounds: CampaignSummary['rounds'] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    const ceiling = await formCeiling(bare.url, { clients: opts.candidates, postsPerClient: postsPerCandidate, body: warm.samplePostBody });
    if (ceiling.errors > 0) throw new Error(`the bare ceiling had ${ceiling.errors} errors`);
    const pageCeiling = await measurePageCeiling(bare, opts.candidates, postsPerCandidate);
    const before = cpuMs(assay.child.pid!);
    const threadsBefore = threadCpuMs(assay.child.pid!);
    const ownBefore = process.cpuUsage();
    const machineBefore = machineBusyMs();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const r = await campaign(assay.url, api, { candidates: opts.candidates, tag: `r${round}-${Date.now()}`, deadlineMs: opts.deadlineMs });
    delay.disable();
    // The histogram holds whole intervals between samples: the delay is what exceeds the resolution.
    const lateMs = (p: number) => Math.max(0, Math.round(delay.percentile(p) / 1e5 - 100) / 10);
    const clientDelay = { p50: lateMs(50), p99: lateMs(99) };
    const cpuMsPerPage = (cpuMs(assay.child.pid!) - before) / Math.max(1, r.posts);
    const own = process.cpuUsage(ownBefore);
    const perThread = [...threadCpuMs(assay.child.pid!)].map(
      ([name, ms]) => `${name} ${(((ms - (threadsBefore.get(name) ?? 0)) * 1000) / r.posts).toFixed(0)}`,
    );
    const machine = ((machineBusyMs() - machineBefore) * 1000) / r.posts;
    process.stderr.write(
      `  µs CPU per page: Assay by thread ${perThread.join(', ')}; load generator ${((own.user + own.system) / r.posts).toFixed(0)}; ` +
        `whole machine ${machine.toFixed(0)} (registration included in the last two)\n`,
    );
    runs.push(r);
    rounds.push({
      ceiling: ceiling.postsPerSecond,
      ceilingPost: { p50: ceiling.p50, p99: ceiling.p99 },
      pageCeiling,
      assay: r.postsPerSecond,
      ratio: r.postsPerSecond / ceiling.postsPerSecond,
      cpuMsPerPage: Math.round(cpuMsPerPage * 100) / 100,
      clientDelay,
    });
    process.stderr.write(
      `round ${round}: ceiling ${ceiling.postsPerSecond} posts/s, post p50 ${ceiling.p50} p99 ${ceiling.p99} ms; ` +
        `with each page's GET ${pageCeiling.pagesPerSecond} pages/s, post p50 ${pageCeiling.post.p50} p99 ${pageCeiling.post.p99} ms, µs CPU per page: load generator ${pageCeiling.clientCpuUs}, bare server ${pageCeiling.serverCpuUs}, whole machine ${pageCeiling.machineCpuUs}; ` +
        `load generator's event-loop delay p50 ${clientDelay.p50} p99 ${clientDelay.p99} ms; Assay ${r.postsPerSecond} posts/s (${(r.postsPerSecond / ceiling.postsPerSecond).toFixed(2)}x), ` +
        `post p50 ${r.post.p50} p99 ${r.post.p99} ms, first page p50 ${r.first.p50} p99 ${r.first.p99} ms, ${cpuMsPerPage.toFixed(2)} ms CPU per page, errors ${JSON.stringify(r.errors)}, webhook p50 ${r.webhooks.p50} ms from the finishing post, ${r.webhooks.fromCompletion.p50} ms from completion\n`,
    );
  }
  const errors: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.errors)) errors[k] = (errors[k] ?? 0) + v;
  const summary: CampaignSummary = {
    candidates: opts.candidates,
    pagesPerCandidate: Math.round(
      runs.reduce((a, r) => a + r.posts, 0) /
        Math.max(
          1,
          runs.reduce((a, r) => a + r.finished, 0),
        ),
    ),
    rounds,
    ratio: mean(rounds.map((r) => r.ratio)),
    postsPerSecond: Math.round(mean(rounds.map((r) => r.assay))),
    post: { p50: worst(runs, (r) => r.post.p50), p99: worst(runs, (r) => r.post.p99) },
    first: { p50: worst(runs, (r) => r.first.p50), p99: worst(runs, (r) => r.first.p99) },
    errors,
    errorCount: runs.reduce((a, r) => a + r.errorCount, 0),
    shedWithoutRetryAfter: runs.reduce((a, r) => a + r.shedWithoutRetryAfter, 0),
    timeouts: runs.reduce((a, r) => a + r.timeouts, 0),
    finished: runs.reduce((a, r) => a + r.finished, 0),
    webhooks: {
      expected: runs.reduce((a, r) => a + r.webhooks.expected, 0),
      received: runs.reduce((a, r) => a + r.webhooks.received, 0),
      p50: worst(runs, (r) => r.webhooks.p50),
      p99: worst(runs, (r) => r.webhooks.p99),
      fromCompletion: { p50: worst(runs, (r) => r.webhooks.fromCompletion.p50), p99: worst(runs, (r) => r.webhooks.fromCompletion.p99) },
    },
    rss: assay.peakRssMb(),
    alive: assay.child.exitCode === null,
  };
  if (opts.reads)
    summary.reads = await reads(
      assay,
      bare,
      creds,
      runs.flatMap((r) => r.completed),
      opts.readSeconds,
    );
  return summary;
}

/** The page ceiling (`PageCeiling`): `clients` connections, each a candidate's pages against the bare server. */
async function measurePageCeiling(bare: Child, clients: number, pages: number): Promise<PageCeiling> {
  const bareBefore = cpuMs(bare.child.pid!);
  const busyBefore = machineBusyMs();
  const r = await formCeiling(bare.url, { clients, postsPerClient: pages, pages: true });
  if (r.errors > 0) throw new Error(`the bare page ceiling had ${r.errors} errors`);
  const perPage = (ms: number) => Math.round((ms * 1000) / (clients * pages));
  return {
    pagesPerSecond: r.postsPerSecond,
    clientCpuUs: r.clientCpuUsPerPost,
    serverCpuUs: perPage(cpuMs(bare.child.pid!) - bareBefore),
    machineCpuUs: perPage(machineBusyMs() - busyBefore),
    post: { p50: r.p50, p99: r.p99 },
  };
}
