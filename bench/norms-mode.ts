import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadContent } from '../src/cli/shared.js';
import { loadConfig } from '../src/config.js';
import { csvSample } from '../src/measurement/csv-sample.js';
import type { Instrument } from '../src/measurement/instruments/types.js';
import { buildNormTable } from '../src/measurement/norm-groups.js';
import { normGroupFromCsv } from '../src/measurement/norms-from-csv.js';
import { seededRandom } from './seeded-random.js';

export interface NormsSummary {
  respondents: number;
  items: number;
  used: number;
  flagged: number;
  rounds: number;
  /** --from-csv end to end (parse, check, score, table, reliability, sample account), ms: min, median, max. */
  csv: { min: number; median: number; max: number };
  /** The same rounds' CPU time of this process (user and system), ms: steadier than wall time on a shared machine. */
  csvCpu: { min: number; median: number; max: number };
  /** buildNormTable alone on scored members (table, reliability, sample account), ms. */
  table: { min: number; median: number; max: number };
}

const random = seededRandom;

/** The SPI's items and seven more on its first scales: 135 items, as the SPI-135 has. */
function spi135(spi: Instrument): Instrument {
  const extra = spi.items.slice(0, 135 - spi.items.length).map((item, i) => ({ ...item, id: `bench_${i + 1}` }));
  return { ...spi, items: [...spi.items, ...extra] };
}

/**
 * `respondents` rows on the six-point scale: each respondent has a trait per scale; an answer is the
 * trait plus as much noise, keyed, rounded onto 1–6, so alphas are realistic. A gender and an age per row.
 */
function responsesCsv(instrument: Instrument, respondents: number, seed: number): string {
  const next = random(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const { min, max } = instrument.responseScale;
  const lines = [['gender', 'age', ...instrument.items.map((i) => i.id)].join(',')];
  for (let r = 0; r < respondents; r++) {
    const trait = new Map(instrument.scales.map((s) => [s.id, normal()]));
    const answers = instrument.items.map((item) => {
      const z = (trait.get(item.scale)! + normal()) * (item.keying === 'negative' ? -1 : 1);
      return Math.min(max, Math.max(min, Math.round((min + max) / 2 + 1.1 * z)));
    });
    lines.push([String(1 + (r % 2)), String(18 + (r % 50)), ...answers].join(','));
  }
  return lines.join('\n') + '\n';
}

const spread = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x);
  return { min: r(s[0]!), median: r(s[s.length >> 1]!), max: r(s[s.length - 1]!) };
};

/** Times building a norm group of `respondents` × 135 items, `rounds` times after one warm-up round. */
export function normsMode(opts: { respondents: number; rounds: number }): NormsSummary {
  const { instruments, competences } = loadContent(loadConfig());
  const instrument = spi135(instruments.get(2)!);
  const text = responsesCsv(instrument, opts.respondents, 47);
  const csv: number[] = [];
  const csvCpu: number[] = [];
  const table: number[] = [];
  let used = 0;
  let flagged = 0;
  for (let round = 0; round <= opts.rounds; round++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const built = normGroupFromCsv({ text, fileName: 'bench.csv', instrument, model: competences, language: 'en', minSample: 200, name: 'bench' });
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    const members = csvSample(text, instrument, competences, 'en').members;
    const t2 = performance.now();
    buildNormTable(members, instrument, competences, 200);
    const t3 = performance.now();
    if (round === 0) {
      used = built.used;
      flagged = built.flagged;
      continue;
    }
    csv.push(t1 - t0);
    csvCpu.push((c1.user + c1.system) / 1000);
    table.push(t3 - t2);
  }
  return {
    respondents: opts.respondents,
    items: instrument.items.length,
    used,
    flagged,
    rounds: opts.rounds,
    csv: spread(csv),
    csvCpu: spread(csvCpu),
    table: spread(table),
  };
}

export function normsRow(s: NormsSummary): Array<string | number> {
  return [
    new Date().toISOString().slice(0, 10),
    `${cpus().length} cores, Node ${process.versions.node}`,
    `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
    `${s.respondents.toLocaleString('en')} × ${s.items}`,
    `${s.used.toLocaleString('en')} / ${s.flagged}`,
    `${s.csv.min} / ${s.csv.median} / ${s.csv.max}`,
    `${s.csvCpu.min} / ${s.csvCpu.median} / ${s.csvCpu.max}`,
    `${s.table.min} / ${s.table.median} / ${s.table.max}`,
    s.rounds,
  ];
}
