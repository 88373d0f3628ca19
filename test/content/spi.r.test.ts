import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { itemKeys } from '../../src/measurement/instruments/types.js';
import { csvSample } from '../../src/measurement/csv-sample.js';
import { competences, instruments } from '../helpers/content.js';
import { runR } from '../helpers/r.js';
import { REMOVED, SHIPPED_KEYS } from '../helpers/spi-removed.js';
import { tempDir } from '../helpers/server.js';

const spi = instruments.get(2)!;
/** The R key each scale of the instrument file says it implements. */
const keyOf = new Map(spi.scales.map((s) => [s.id, (s as unknown as { key: string }).key]));

// R's own account of the inventory: the dictionary's item texts and sources, and spi.keys with the
// items the dictionary does not attribute to IPIP, and those removed, taken out.
const DICTIONARY = `
suppressMessages(library(psychTools))
${SHIPPED_KEYS}
items <- unique(sub("^-", "", unlist(spi.keys)))
cat(jsonlite::toJSON(list(keys = keys, items = lapply(items, function(i) list(id = i, text = as.character(d[i, "item"]), source = as.character(d[i, "item_scale"])))), auto_unbox = TRUE))`;

/** A seeded uniform generator, so the answer sets are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('the SPI instrument against psychTools', { timeout: 120_000 }, () => {
  const r = JSON.parse(runR(DICTIONARY)) as { keys: Record<string, string[]>; items: Array<{ id: string; text: string; source: string }> };

  test('its 120 items are the IPIP items of spi.dictionary less the 8 removed, with its English texts; the 7 EPQ items are left out', () => {
    const ipip = r.items.filter((i) => i.source === 'IPIP');
    assert.equal(r.items.length, 135);
    assert.equal(ipip.length, 128);
    assert.deepEqual(r.items.filter((i) => i.source !== 'IPIP').map((i) => i.source.slice(0, 3)), Array(7).fill('EPQ'));
    // Positive control: each removed item is an IPIP item of the published SPI, so leaving it out is a change.
    for (const id of REMOVED) assert.ok(ipip.some((i) => i.id === id), id);
    assert.deepEqual(
      spi.items.map((i) => i.id).sort(),
      ipip
        .map((i) => i.id)
        .filter((id) => !REMOVED.includes(id))
        .sort(),
    );
    const text = new Map(ipip.map((i) => [i.id, i.text]));
    // The dictionary drops apostrophes; the instrument restores them.
    for (const item of spi.items) assert.equal(item.text.en.replace(/'/g, ''), text.get(item.id), item.id);
  });

  test('its 31 scales are keyed exactly as spi.keys, less the EPQ and removed items and the Conservatism scale: each item, each sign', () => {
    assert.equal(spi.scales.length, 31);
    assert.ok(!Object.keys(r.keys).includes('Conservatism'));
    assert.deepEqual([...keyOf.values()], Object.keys(r.keys));
    const ours = new Map<string, string[]>();
    for (const item of spi.items) for (const k of itemKeys(item)) ours.set(keyOf.get(k.scale)!, [...(ours.get(keyOf.get(k.scale)!) ?? []), `${k.keying === 'negative' ? '-' : ''}${item.id}`]);
    for (const [name, keys] of Object.entries(r.keys)) assert.deepEqual([...ours.get(name)!].sort(), [...keys].sort(), name);
  });

  test('a fixed and 200 random answer sets, through a CSV, give the 31 scale scores of psych::scoreItems with those keys', () => {
    const next = random(7);
    const ids = spi.items.map((i) => i.id);
    // The fixed set: 1 to 6 in turn; then uniform random answers.
    const rows = [ids.map((_, j) => 1 + (j % 6)), ...Array.from({ length: 200 }, () => ids.map(() => 1 + Math.floor(next() * 6)))];
    const dir = tempDir('assay-spi-');
    const file = join(dir, 'answers.csv');
    writeFileSync(file, [ids.join(','), ...rows.map((row) => row.join(','))].join('\n') + '\n');
    const rScores = JSON.parse(
      runR(`
suppressMessages({ library(psych); library(psychTools) })
${SHIPPED_KEYS}
x <- read.csv("${file}", check.names = FALSE)
s <- psych::scoreItems(keys, x, min = 1, max = 6)$scores
cat(jsonlite::toJSON(list(names = colnames(s), scores = unname(s)), digits = NA))`),
    ) as { names: string[]; scores: number[][] };
    const sample = csvSample(readFileSync(file, 'utf8'), spi, competences, 'en');
    assert.equal(sample.members.length, 201);
    let compared = 0;
    sample.members.forEach((m, row) => {
      const ours = new Map(m.scales.map((s) => [keyOf.get(s.scale)!, s.mean]));
      rScores.names.forEach((name, c) => {
        const theirs = rScores.scores[row]![c]!;
        // Assay reports two decimals.
        assert.ok(Math.abs(ours.get(name)! - theirs) <= 0.005 + 1e-9, `row ${row + 2}, ${name}: Assay ${ours.get(name)}, R ${theirs}`);
        compared++;
      });
    });
    assert.equal(compared, 201 * 31);
    // Positive control: ignoring the reverse keys, the first set's Agree score would differ from R's.
    const agree = spi.items.filter((i) => itemKeys(i).some((k) => keyOf.get(k.scale) === 'Agree'));
    const unkeyed = agree.reduce((sum, i) => sum + rows[0]![ids.indexOf(i.id)]!, 0) / agree.length;
    assert.ok(Math.abs(unkeyed - rScores.scores[0]![rScores.names.indexOf('Agree')]!) > 0.05, 'the keys matter');
  });
});
