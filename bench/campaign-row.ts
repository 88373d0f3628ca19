import { cpus } from 'node:os';
import type { CampaignSummary } from './campaign-mode.js';
import type { ReadsSummary } from './campaign-reads.js';

/** A reads cell of the campaign row: rate, share of the ceiling, first reads, the floor, and each server's CPU per request. */
function readCell(r: ReadsSummary['results']): string {
  const f = (x: number) => `${x.toFixed(2)}x`;
  const floor = r.floor ? `; Fastify with Assay's request log alone ${r.floor.rps}, ${f(r.floor.ratio)}` : '';
  const cpu = `server CPU µs per request: bare ${r.cpuUs.bare}${r.cpuUs.floor !== undefined ? `, that Fastify ${r.cpuUs.floor}` : ''}, Assay ${r.cpuUs.assay}`;
  const bad = r.bad > 0 ? `; ${r.bad} not 200, so not a measure of reads` : '';
  return `${r.rps} (${f(r.ratio)}; ${(100 * r.firstReads).toFixed(1)}% first reads${floor}; ${cpu}${bad})`;
}

/** The campaign's row in bench/RESULTS.md. */
export function campaignRow(s: CampaignSummary, database: 'PostgreSQL' | 'SQLite'): Array<string | number> {
  const f = (r: number) => `${r.toFixed(2)}x`;
  const answers =
    Object.entries(s.errors)
      .map(([k, v]) => `${v}× ${k}`)
      .join(', ') || '0';
  const cpu = s.rounds.map((r) => Math.round(r.cpuMsPerPage * 1000)).join(', ');
  return [
    new Date().toISOString().slice(0, 10),
    `${cpus().length} cores, Node ${process.versions.node}`,
    `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
    database,
    s.candidates.toLocaleString('en'),
    `${s.rounds.map((r) => r.ceiling).join(', ')}; post p50 / p99 ${s.rounds.map((r) => `${r.ceilingPost.p50} / ${r.ceilingPost.p99}`).join(', ')}; ` +
      `with each page's GET ${s.rounds.map((r) => r.pageCeiling.pagesPerSecond).join(', ')} pages/s (post p50 / p99 ${s.rounds.map((r) => `${r.pageCeiling.post.p50} / ${r.pageCeiling.post.p99}`).join(', ')}), µs CPU per page of the load generator ${s.rounds.map((r) => r.pageCeiling.clientCpuUs).join(', ')}, of the bare server ${s.rounds.map((r) => r.pageCeiling.serverCpuUs).join(', ')}, of the whole machine ${s.rounds.map((r) => r.pageCeiling.machineCpuUs).join(', ')}`,
    `${s.rounds.map((r) => r.assay).join(', ')} (${f(s.ratio)})`,
    `${s.post.p50} / ${s.post.p99}; first page ${s.first.p50} / ${s.first.p99}; load generator's loop delay p99 ${s.rounds.map((r) => r.clientDelay.p99).join(', ')}`,
    cpu,
    answers,
    s.timeouts,
    `${s.webhooks.received}/${s.webhooks.expected}, ${s.webhooks.p50} / ${s.webhooks.p99}; from completion ${s.webhooks.fromCompletion.p50} / ${s.webhooks.fromCompletion.p99}`,
    s.rss,
    s.reads ? readCell(s.reads.results) : '–',
    s.reads ? readCell(s.reads.report) : '–',
    s.reads
      ? `${s.reads.pdf.p99} (${s.reads.pdf.pdfs} PDFs, each of another assessment${s.reads.pdf.first ? `; the first ${s.reads.pdf.first.pdfs} after start, apart: slowest ${s.reads.pdf.first.max}` : ''}${s.reads.pdf.bad ? `; ${s.reads.pdf.bad} not 200` : ''}; peak RSS after them ${s.reads.pdf.rss} MB)`
      : '–',
  ];
}
