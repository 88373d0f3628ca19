import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../src/platform/paths.js';
import { inherited } from '../test/helpers/cli.js';
import { apiClient } from '../test/helpers/http.js';
import { startAssay } from './processes.js';

const INSTRUMENTS = [
  { type: 0, name: 'TMA170' },
  { type: 1, name: 'TMA312' },
  { type: 2, name: 'SPI' },
] as const;

export interface WalkSummary {
  rounds: number;
  /** Per instrument, `bin/assay portal walk` from its start to its exit, s: min, median, max. */
  seconds: Record<string, { min: number; median: number; max: number }>;
  /** Walks that did not exit 0. */
  failed: number;
}

function walkOnce(url: string): Promise<{ ms: number; ok: boolean }> {
  const t0 = performance.now();
  return new Promise((resolve) =>
    execFile(join(ROOT, 'bin', 'assay'), ['portal', 'walk', url, '--answers', 'random'], { env: inherited(), timeout: 300_000 }, (err) =>
      resolve({ ms: performance.now() - t0, ok: !err }),
    ),
  );
}

/** A setup request, sent again while a busy machine's server sheds it (503) for 30 s at most. */
async function served<T extends { status: number; text: string }>(send: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await send();
    if (r.status < 300) return r;
    if (r.status !== 503 || Date.now() > deadline) throw new Error(`setup request refused: ${r.status} ${r.text}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/**
 * `bin/assay portal walk` as the README's candidate step runs it, one walk at a time, each a process
 * of its own (its start counted), on every instrument, `rounds` times, against one Assay process.
 */
export async function walkMode(env: Record<string, string>, creds: Record<string, string>, opts: { rounds: number }): Promise<WalkSummary> {
  const assay = await startAssay(env);
  const api = apiClient(assay.url, { username: creds.username!, password: creds.password!, apiKey: creds.apiKey! });
  const seconds: WalkSummary['seconds'] = {};
  let failed = 0;
  try {
    for (const instrument of INSTRUMENTS) {
      const ms: number[] = [];
      for (let round = 0; round < opts.rounds; round++) {
        const externalId = `walk-${instrument.name}-${round}`;
        await served(() =>
          api.createCandidate({ ExternalId: externalId, Email: 'ada@example.com', FirstName: 'Ada', LastName: 'Lovelace', Preposition: '', Gender: 1 }),
        );
        const created = await served(() => api.createAssessment({ ExternalId: externalId, AssessmentType: instrument.type }));
        // The tenant's portal domain has no port: the walk goes to this server's.
        const url = new URL(new URL(created.body.Data.AssessmentUrl as string).pathname, assay.url).href;
        const walked = await walkOnce(url);
        if (!walked.ok) failed += 1;
        ms.push(walked.ms);
      }
      const s = ms.sort((a, b) => a - b).map((x) => Math.round(x / 100) / 10);
      seconds[instrument.name] = { min: s[0]!, median: s[s.length >> 1]!, max: s[s.length - 1]! };
    }
  } finally {
    await assay.stop();
  }
  return { rounds: opts.rounds, seconds, failed };
}

export function walkRow(s: WalkSummary, pg: boolean): Array<string | number> {
  const cell = (name: string) => `${s.seconds[name]!.min} / ${s.seconds[name]!.median} / ${s.seconds[name]!.max}`;
  return [
    new Date().toISOString().slice(0, 10),
    `${cpus().length} cores, Node ${process.versions.node}`,
    `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
    pg ? 'PostgreSQL' : 'SQLite',
    cell('TMA170'),
    cell('TMA312'),
    cell('SPI'),
    s.rounds,
    s.failed,
  ];
}
