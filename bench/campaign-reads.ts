import autocannon from 'autocannon';
import { authHeaders, type Credentials } from '../test/helpers/http.js';
import { cpuMs, threadCpuMs } from './cpu.js';
import { startFloor, type Child } from './processes.js';
import { mean } from './stats.js';

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
export async function reads(assay: Child, bare: Child, creds: Credentials, ids: string[], seconds: number): Promise<ReadsSummary> {
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
    process.stderr.write(
      `  ${paths[0]!.split('/')[2]}: server CPU µs per request: bare ${cpu('bare')
        .map((x) => x.toFixed(0))
        .join(', ')}; floor ${
        cpu('floor')
          .map((x) => x.toFixed(0))
          .join(', ') || '–'
      }; Assay ${cpu('assay')
        .map((x) => x.toFixed(0))
        .join(
          ', ',
        )}; Assay's share of bare by round ${runs.assay.map((r, i) => (r.rps / runs.bare[i]!.rps).toFixed(2)).join(', ')} (the first round renders every assessment); Assay's CPU µs per request by thread, by round: ${runs.assay.map((r) => r.threads).join(' | ')}\n`,
    );
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
    pdf: {
      rps: Math.round(pdf.rps),
      p99: pdf.p99,
      bad: pdf.bad + (first?.bad ?? 0),
      pdfs: pdf.requests,
      first: first && { pdfs: first.requests, max: first.max },
      rss: assay.peakRssMb(),
    },
  };
}
