import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadContent } from '../src/cli/shared.js';
import { loadConfig } from '../src/config.js';
import { carelessNorm } from '../src/measurement/careless/calibrate.js';
import { beyond, carelessModel, carelessValues } from '../src/measurement/careless/indices.js';
import type { Instrument } from '../src/measurement/instruments/types.js';
import { ROOT } from '../src/platform/paths.js';
import { CARELESS_INDICES, type CarelessIndex, type CarelessNorm } from '../src/measurement/types.js';
import { seededRandom } from './seeded-random.js';

export interface CarelessSummary {
  sample: number;
  simulated: number;
  /** The share of the real sample the calibrated indices flag together, and each alone. */
  falsePositive: { any: number } & Record<CarelessIndex, number>;
  /** Per simulated kind of careless answering: the share caught by any index, and by each. */
  caught: Record<string, { any: number } & Record<CarelessIndex, number>>;
}

const random = seededRandom;

/** The adults of psychTools::spi with every shipped item answered, as content/norms/build-spi.sh exports them: by Rscript. */
function realSample(spi: Instrument): number[][] {
  const script = `
items <- vapply(jsonlite::fromJSON("${join(ROOT, 'content', 'instruments', 'spi.json')}", simplifyVector = FALSE)$items, function(i) i$id, "")
spi <- psychTools::spi
x <- spi[spi$age >= 18, items]
x <- as.matrix(x[complete.cases(x), ])
cat(jsonlite::toJSON(unname(x)))`;
  const rows = JSON.parse(execFileSync('Rscript', ['--vanilla', '-e', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as number[][];
  if (!rows.length || rows[0]!.length !== spi.items.length) throw new Error('the exported sample does not have the shipped items');
  return rows;
}

function rates(spi: Instrument, norm: CarelessNorm, rows: readonly (readonly number[])[]): { any: number } & Record<CarelessIndex, number> {
  const model = carelessModel(norm);
  const counts = { any: 0, EvenOdd: 0, Synonyms: 0, LongString: 0, Outlier: 0 };
  for (const row of rows) {
    const values = carelessValues(spi, model, new Map(spi.items.map((item, j) => [item.id, row[j]!])));
    const fired = CARELESS_INDICES.filter((ix) => beyond(values[ix], norm.indices[ix]));
    for (const ix of fired) counts[ix]++;
    if (fired.length) counts.any++;
  }
  const share = (n: number) => Math.round((10_000 * n) / rows.length) / 10_000;
  return {
    any: share(counts.any),
    EvenOdd: share(counts.EvenOdd),
    Synonyms: share(counts.Synonyms),
    LongString: share(counts.LongString),
    Outlier: share(counts.Outlier),
  };
}

/**
 * Calibrates the careless indices on the real adult sample as the build does, then answers the
 * shipped SPI items carelessly `simulated` times each way and counts who is caught: uniformly
 * random; random with each item's own answer distribution in the sample; a real respondent with
 * half the items answered uniformly at random (a random half, and the second half, as one who tires).
 */
export function carelessMode(opts: { simulated: number }): CarelessSummary {
  const content = loadContent(loadConfig({}));
  const spi = [...content.instruments.values()].find((i) => i.code === 'SPI')!;
  const sample = realSample(spi);
  const members = sample.map((row) => ({ answers: new Map(spi.items.map((item, j) => [item.id, row[j]!])) }));
  const norm = carelessNorm(spi, members);
  if (!norm) throw new Error('no careless norm from the sample');
  const { min, max } = spi.responseScale;
  const next = random(58);
  const uniform = () => min + Math.floor(next() * (max - min + 1));
  const p = spi.items.length;
  const columns = Array.from({ length: p }, (_, j) => sample.map((r) => r[j]!));
  const pickReal = () => sample[Math.floor(next() * sample.length)]!;
  const make = (f: () => number[]) => Array.from({ length: opts.simulated }, f);
  const kinds: Record<string, number[][]> = {
    'uniform random': make(() => Array.from({ length: p }, uniform)),
    "random, the sample's answer distribution": make(() => columns.map((c) => c[Math.floor(next() * c.length)]!)),
    'half random (a random half of the items)': make(() => pickReal().map((v) => (next() < 0.5 ? uniform() : v))),
    'half random (the second half)': make(() => pickReal().map((v, j) => (j >= p / 2 ? uniform() : v))),
  };
  return {
    sample: sample.length,
    simulated: opts.simulated,
    falsePositive: rates(spi, norm, sample),
    caught: Object.fromEntries(Object.entries(kinds).map(([kind, rows]) => [kind, rates(spi, norm, rows)])),
  };
}

/** The summary as the lines the bench prints. */
export function carelessLines(s: CarelessSummary): string[] {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(7);
  const head = `${''.padEnd(52)} ${'any'.padStart(7)} ${CARELESS_INDICES.map((ix) => ix.padStart(10)).join(' ')}`;
  const line = (label: string, r: CarelessSummary['falsePositive']) =>
    `${label.padEnd(52)} ${pct(r.any)} ${CARELESS_INDICES.map((ix) => pct(r[ix]).padStart(10)).join(' ')}`;
  return [
    `Careless responding on the SPI's ${s.sample.toLocaleString('en')} real adults (psychTools::spi) and ${s.simulated.toLocaleString('en')} simulated answer sets of each kind`,
    head,
    line('flagged in the real sample (false positives)', s.falsePositive),
    ...Object.entries(s.caught).map(([kind, r]) => line(`caught: ${kind}`, r)),
  ];
}

/** `--careless`: no server; calibration and simulation in this process, on the real sample R exports. Prints, appends no row. */
export function carelessBench(simulated: number): void {
  process.stdout.write(carelessLines(carelessMode({ simulated })).join('\n') + '\n');
}
