import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { reliability, reverseKeyed } from '../../src/measurement/reliability.js';
import { runR } from '../helpers/r.js';

// R exports psychTools::bfi (2,800 real respondents, 25 items on 1-6) and psych::alpha's figures for
// the five scales keyed by bfi.keys, on the respondents who answered all 25 items.
const SCRIPT = `
suppressMessages({ library(psych); library(psychTools) })
items <- unlist(lapply(bfi.keys, function(k) sub("^-", "", k)))
x <- na.omit(bfi[, items])
scales <- lapply(names(bfi.keys), function(name) {
  keys <- bfi.keys[[name]]
  plain <- sub("^-", "", keys)
  a <- psych::alpha(x[, plain], keys = plain[startsWith(keys, "-")], warnings = FALSE)
  list(name = name, items = plain, reversed = plain[startsWith(keys, "-")],
       alpha = a$total$raw_alpha, lower = a$feldt$lower.ci$raw_alpha, upper = a$feldt$upper.ci$raw_alpha,
       itemRest = a$item.stats$r.drop, alphaIfDeleted = a$alpha.drop$raw_alpha)
})
cat(jsonlite::toJSON(list(columns = colnames(x), rows = unname(as.matrix(x)), scales = scales), digits = NA, auto_unbox = TRUE))
`;

interface RScale {
  name: string;
  items: string[];
  reversed: string[] | string;
  alpha: number;
  lower: number;
  upper: number;
  itemRest: number[];
  alphaIfDeleted: number[];
}

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 0.0005, `${what}: Assay ${actual.toFixed(5)}, R ${expected.toFixed(5)}`);

describe('reliability against R psych::alpha on psychTools::bfi (real responses)', { timeout: 180_000 }, () => {
  test('alpha, its Feldt interval, item-rest correlations and alpha if deleted equal R to 3 decimals, for all five scales', () => {
    const r = JSON.parse(runR(SCRIPT)) as { columns: string[]; rows: number[][]; scales: RScale[] };
    assert.ok(r.rows.length > 2000, `${r.rows.length} complete respondents`);
    assert.equal(r.scales.length, 5);
    for (const scale of r.scales) {
      const reversedNames = new Set([scale.reversed].flat());
      const columns = scale.items.map((item) => r.columns.indexOf(item));
      const rows = r.rows.map((row) => columns.map((c) => row[c]!));
      const reversed = new Set(scale.items.flatMap((item, j) => (reversedNames.has(item) ? [j] : [])));
      const ours = reliability(reverseKeyed(rows, reversed, 1, 6));
      close(ours.alpha, scale.alpha, `${scale.name} alpha`);
      close(ours.alphaLower, scale.lower, `${scale.name} Feldt lower`);
      close(ours.alphaUpper, scale.upper, `${scale.name} Feldt upper`);
      scale.items.forEach((item, j) => {
        close(ours.itemStatistics[j]!.itemRest, scale.itemRest[j]!, `${scale.name} ${item} item-rest r`);
        close(ours.itemStatistics[j]!.alphaIfDeleted, scale.alphaIfDeleted[j]!, `${scale.name} ${item} alpha if deleted`);
      });
    }
    // Positive control: the keys matter; unreversed, agreeableness (A1 reversed in R) disagrees with R.
    const agree = r.scales.find((s) => s.name === 'agree')!;
    const raw = reliability(r.rows.map((row) => agree.items.map((item) => row[r.columns.indexOf(item)]!)));
    assert.ok(Math.abs(raw.alpha - agree.alpha) > 0.01, 'without reverse keying the figures differ');
  });
});
