// Makes the illustrative example norm files in this folder from simulated answers.
// Run after `npm run build`: node content/norms/generate.mjs
// The respondents are fictitious. The files are labelled illustrative: for trying Assay out,
// never for selection decisions.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadInstruments } from '../../dist/src/measurement/instruments/load.js';
import { scoreAnswers } from '../../dist/src/measurement/instruments/scoring.js';
import { competenceScores } from '../../dist/src/measurement/competences.js';
import { loadCompetences } from '../../dist/src/measurement/load.js';
import { buildNormTable, toNormFile } from '../../dist/src/measurement/norm-groups.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const instruments = loadInstruments(fileURLToPath(new URL('../instruments', import.meta.url)));
const model = loadCompetences(fileURLToPath(new URL('../competences/competences.json', import.meta.url)), instruments);
const RESPONDENTS = 1000;

// mulberry32: a small seeded generator, so the files come out the same every run.
let seed = 20261123;
function random() {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const full = instruments.get(1);
// Each scale gets its own popularity, so the example's means differ from scale to scale.
const offset = new Map(full.scales.map((s) => [s.id, (random() - 0.5) * 1.2]));

// One fictitious respondent: a level per scale, then every item answered around it with noise.
function respondent() {
  const level = new Map(full.scales.map((s) => [s.id, offset.get(s.id) + 0.9 * normal()]));
  const answers = new Map();
  for (const item of full.items) {
    const keyed = Math.min(5, Math.max(1, Math.round(3 + level.get(item.scale) + 0.8 * normal())));
    answers.set(item.id, item.keying === 'negative' ? 6 - keyed : keyed);
  }
  return answers;
}

const people = Array.from({ length: RESPONDENTS }, respondent);
for (const instrument of instruments.values()) {
  // The SPI has real norms of its own (build-spi.sh).
  if (instrument.code === 'SPI') continue;
  const sample = people.map((answers) => {
    const own = new Map(instrument.items.map((item) => [item.id, answers.get(item.id)]));
    const scales = scoreAnswers(instrument, own);
    return { scales, competences: competenceScores(model, scales), flags: [] };
  });
  const { table } = buildNormTable(sample, instrument, model, RESPONDENTS);
  const file = toNormFile(
    {
      name: `Illustrative example (simulated), ${instrument.code}`,
      assessmentType: instrument.assessmentType,
      source: `Simulated answers of ${RESPONDENTS} fictitious respondents (content/norms/generate.mjs). Not a real norm sample: for trying Assay out, never for selection decisions.`,
      description: {
        en: `Illustrative only: ${RESPONDENTS.toLocaleString('en')} simulated, fictitious respondents for trying Assay out. Not a real comparison group; never use it for selection decisions.`,
        nl: `Alleen ter illustratie: ${RESPONDENTS.toLocaleString('nl')} gesimuleerde, fictieve respondenten om Assay uit te proberen. Geen echte normgroep; nooit gebruiken voor selectiebeslissingen.`,
      },
      sampleSize: RESPONDENTS,
      collectedFrom: null,
      collectedTo: null,
      illustrative: true,
      contentVersion: null,
      language: null,
      table,
    },
    instrument,
  );
  writeFileSync(`${here}example-${instrument.code.toLowerCase()}.json`, format(file) + '\n');
}

// Two-space JSON, with each distribution on one line.
function format(value) {
  const inline = [];
  const text = JSON.stringify(value, (key, v) => (key === 'distribution' ? `\u0000${inline.push(JSON.stringify(v)) - 1}` : v), 2);
  return text.replace(/"\\u0000(\d+)"/g, (_, i) => inline[Number(i)]);
}
