import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { apiClient, authHeaders, type Credentials } from '../test/helpers/http.js';
import { campaign, formCeiling, type CampaignResult } from './campaign.js';
import { startFloor, type Child } from './processes.js';

/** The rounds together: sums of counts, and the worst round's latencies (as each is described on CampaignResult). */
export interface CampaignSummary
  extends Pick<CampaignResult, 'candidates' | 'postsPerSecond' | 'post' | 'first' | 'errors' | 'errorCount' | 'shedWithoutRetryAfter' | 'timeouts' | 'finished' | 'webhooks'> {
  /** Page posts each candidate made: start, every questionnaire page, confirmation. */
  pagesPerCandidate: number;
  /**
   * `ceilingPost`: the bare server's post latency at the same concurrency, a floor no server on
   * this machine beats. `clientDelay`: the load generator's own event-loop delay during the
   * campaign, which every latency it measures includes.
   */
  rounds: Array<{ ceiling: number; ceilingPost: { p50: number; p99: number }; pageCeiling: PageCeiling; assay: number; ratio: number; cpuMsPerPage: number; clientDelay: { p50: number; p99: number } }>;
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

interface ReadPair {
  rps: number;
  ceiling: number;
  ratio: number;
  bytes: number;
  bad: number;
  firstReads: number;
  /** Fastify with Assay's request log and nothing else, answering as many bytes (`floor-server.ts`): its requests a second and its share of the ceiling. */
  floor?: { rps: number; ratio: number };
  /** Each server's CPU (all threads) per request, in µs, mean of its runs. */
  cpuUs: { bare: number; assay: number; floor?: number };
}

export interface ReadsSummary {
  results: ReadPair;
  report: ReadPair;
  /**
   * Each PDF is of another assessment, so each is rendered, none cached.
   * `first`: the PDFs asked for first, after the server's start, timed apart (the slowest of them).
   * `rss`: the server's peak RSS once the PDF threads have rendered them all, in MB.
   */
  pdf: { rps: number; p99: number; bad: number; pdfs: number; first: { pdfs: number; max: number } | undefined; rss: number };
}

/** User plus system CPU of a process so far, all threads, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU ms per thread name (main thread: the process's own name), summed over threads of one name. */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(Number(tid) === pid ? 'main' : name, (out.get(Number(tid) === pid ? 'main' : name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

/** Busy CPU ms of the whole machine so far (all cores, /proc/stat). */
export function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  return ((ticks.reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!) * 1000) / 100;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
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
    const perThread = [...threadCpuMs(assay.child.pid!)].map(([name, ms]) => `${name} ${(((ms - (threadsBefore.get(name) ?? 0)) * 1000) / r.posts).toFixed(0)}`);
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
    pagesPerCandidate: Math.round(runs.reduce((a, r) => a + r.posts, 0) / Math.max(1, runs.reduce((a, r) => a + r.finished, 0))),
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
  if (opts.reads) summary.reads = await reads(assay, bare, creds, runs.flatMap((r) => r.completed), opts.readSeconds);
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

/**
 * autocannon on `origin`, each request for the next path of `paths` in turn (one path: always that
 * one), for `duration` seconds or, given `amount`, until that many requests are answered.
 */
async function load(origin: string, paths: string[], headers: Record<string, string>, connections: number, duration: number, amount?: number) {
  let next = 0;
  const r = await autocannon({
    url: origin + paths[0],
    headers,
    // autocannon refuses more connections than requests.
    connections: Math.min(connections, amount ?? connections),
    ...(amount === undefined ? { duration } : { amount }),
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }) }],
  });
  if (r.non2xx > 0) process.stderr.write(`  ${paths[0]}: answers ${JSON.stringify(r.statusCodeStats)}\n`);
  return { rps: r.requests.average, p99: r.latency.p99, max: r.latency.max, bad: r.errors + r.timeouts + r.non2xx, requests: r.requests.total };
}

/**
 * The results endpoint and the HTML report of every completed assessment in turn, against a bare
 * server answering as many bytes. The first read of each assessment renders it; later reads of
 * it are served from the render cache, as an ATS polling for results would be. `firstReads` says
 * what share of reads rendered. For the results endpoint the framework's floor runs in the same
 * A B order (bare, floor, Assay): what Fastify with Assay's request log alone reaches. Then PDFs
 * at 10 connections, each assessment's once: every PDF is rendered, none comes from the render cache. The first few, which start the PDF threads, are
 * reported apart.
 */
async function reads(assay: Child, bare: Child, creds: Credentials, ids: string[], seconds: number): Promise<ReadsSummary> {
  const headers = authHeaders(creds);
  const resultsPaths = ids.map((id) => `/api/candidateanalysisresult/${id}/en-GB`);
  const reportPaths = ids.map((id) => `/api/anonymous/assessment/${id}/report?lang=en`);
  const size = async (path: string) => (await (await fetch(assay.url + path, { headers })).arrayBuffer()).byteLength;
  // Sized on the last assessment, which the runs below then read first as a repeat.
  const resultsBytes = await size(resultsPaths.at(-1)!);
  const reportBytes = await size(reportPaths.at(-1)!);
  // The server's CPU (all its threads) per request of one load, in µs, beside the load's numbers.
  const timed = async (server: Child, paths: string[], hdrs: Record<string, string>) => {
    const before = cpuMs(server.child.pid!);
    const threadsBefore = threadCpuMs(server.child.pid!);
    const r = await load(server.url, paths, hdrs, 50, seconds);
    const perRequest = (ms: number) => (ms * 1000) / Math.max(1, r.requests);
    // Which threads the CPU went to: the event loop's share against the workers' (checkpoints, PDFs).
    const threads = [...threadCpuMs(server.child.pid!)].map(([name, ms]) => `${name} ${perRequest(ms - (threadsBefore.get(name) ?? 0)).toFixed(1)}`).join(', ');
    return { ...r, cpuUs: perRequest(cpuMs(server.child.pid!) - before), threads };
  };
  const pair = async (paths: string[], bytes: number, type: string, floor?: Child): Promise<ReadPair> => {
    const runs: Record<'bare' | 'floor' | 'assay', Array<Awaited<ReturnType<typeof timed>>>> = { bare: [], floor: [], assay: [] };
    for (let i = 0; i < 2; i++) {
      runs.bare.push(await timed(bare, [`/bytes/${bytes}?type=${encodeURIComponent(type)}`], {}));
      if (floor) runs.floor.push(await timed(floor, [`/bytes/${bytes}`], {}));
      runs.assay.push(await timed(assay, paths, headers));
    }
    const floorBad = runs.floor.reduce((a, r) => a + r.bad, 0);
    if (floorBad > 0) throw new Error(`the floor server failed ${floorBad} requests`);
    const cpu = (server: keyof typeof runs) => runs[server].map((r) => r.cpuUs);
    const share = (server: 'floor' | 'assay') => mean(runs[server].map((r, i) => r.rps / runs.bare[i]!.rps));
    const requests = runs.assay.reduce((a, r) => a + r.requests, 0);
    process.stderr.write(`  ${paths[0]!.split('/')[2]}: server CPU µs per request: bare ${cpu('bare').map((x) => x.toFixed(0)).join(', ')}; floor ${cpu('floor').map((x) => x.toFixed(0)).join(', ') || '–'}; Assay ${cpu('assay').map((x) => x.toFixed(0)).join(', ')}; Assay's share of bare by round ${runs.assay.map((r, i) => (r.rps / runs.bare[i]!.rps).toFixed(2)).join(', ')} (the first round renders every assessment); Assay's CPU µs per request by thread, by round: ${runs.assay.map((r) => r.threads).join(' | ')}\n`);
    return {
      cpuUs: { bare: Math.round(mean(cpu('bare'))), assay: Math.round(mean(cpu('assay'))), ...(floor ? { floor: Math.round(mean(cpu('floor'))) } : {}) },
      rps: Math.round(mean(runs.assay.map((r) => r.rps))),
      ceiling: Math.round(mean(runs.bare.map((r) => r.rps))),
      ratio: share('assay'),
      bytes,
      bad: runs.assay.reduce((a, r) => a + r.bad, 0),
      firstReads: Math.min(paths.length, requests) / Math.max(1, requests),
      ...(floor ? { floor: { rps: Math.round(mean(runs.floor.map((r) => r.rps))), ratio: share('floor') } } : {}),
    };
  };
  const floor = await startFloor();
  const results = await pair(resultsPaths, resultsBytes, 'application/json; charset=utf-8', floor).finally(() => floor.stop());
  const report = await pair(reportPaths, reportBytes, 'text/html; charset=utf-8');
  // The PDF threads' memory comes on top of what the campaign and the other reads peaked at.
  process.stderr.write(`  peak RSS before the PDFs: ${assay.peakRssMb()} MB\n`);
  const pdfPaths = reportPaths.map((p) => `${p}&format=pdf`);
  // The first PDFs start the PDF threads, parse the fonts and shape the report texts: timed apart.
  const warmup = Math.min(20, Math.floor(ids.length / 5));
  const first = warmup > 0 ? await load(assay.url, pdfPaths.slice(0, warmup), headers, 10, seconds, warmup) : undefined;
  const pdf = await load(assay.url, pdfPaths.slice(warmup), headers, 10, seconds, ids.length - warmup);
  return {
    results,
    report,
    pdf: { rps: Math.round(pdf.rps), p99: pdf.p99, bad: pdf.bad + (first?.bad ?? 0), pdfs: pdf.requests, first: first && { pdfs: first.requests, max: first.max }, rss: assay.peakRssMb() },
  };
}
