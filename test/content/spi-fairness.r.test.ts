import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { instruments } from '../helpers/content.js';
import { runR } from '../helpers/r.js';
import { SHIPPED_KEYS } from '../helpers/spi-removed.js';

const spi = instruments.get(2)!;
const NORMS = join(ROOT, 'content', 'norms');
/** The shipped groups with both genders: the adults and the three age bands. */
const GROUPS = ['spi-sapa', 'spi-sapa-age18-24', 'spi-sapa-age25-34', 'spi-sapa-age35'];
const shipped = (group: string) => JSON.parse(readFileSync(join(NORMS, `${group}.json`), 'utf8'));
const keyOf = new Map(spi.scales.map((s) => [s.id, (s as unknown as { key: string }).key]));

// R's own account of each group, scored from spi.keys (the shipped items), not from Assay: each
// scale's score the mean of its keyed answers (reverse-keyed turned round, 7 − x), two decimals;
// each member's mid-rank in the group (the share below plus half the share at the score); high at a
// mid-rank of Φ(0.5) or more (sten 7+: 5.5 + 2z ≥ 6.5), low below Φ(−0.5) (sten 4−: 5.5 + 2z < 4.5).
// d and its 95% interval from psych::cohen.d; the four-fifths ratios counted here.
const R_FAIRNESS = `
suppressMessages({ library(psych); library(psychTools) })
${SHIPPED_KEYS}
a <- spi[spi$age >= 18, ]
groups <- list("spi-sapa" = rep(TRUE, nrow(a)), "spi-sapa-age18-24" = a$age <= 24,
  "spi-sapa-age25-34" = a$age >= 25 & a$age <= 34, "spi-sapa-age35" = a$age >= 35)
score <- function(g, k) { items <- sub("^-", "", k); x <- g[, items, drop = FALSE]; neg <- startsWith(k, "-"); x[, neg] <- 7 - x[, neg]; floor(rowSums(x) / length(k) * 100 + 0.5) / 100 }
out <- lapply(names(groups), function(name) {
  g <- a[groups[[name]], ]
  scores <- sapply(keys, function(k) score(g, k))
  sexed <- !is.na(g$sex)
  cd <- psych::cohen.d(data.frame(scores[sexed, ], sex = g$sex[sexed]), "sex")$cohen.d
  scales <- lapply(colnames(scores), function(k) {
    x <- scores[, k]
    p <- sapply(x, function(v) (sum(x < v) + sum(x == v) / 2) / length(x))
    count <- function(sel, sex) sum(sel & sexed & g$sex == sex)
    rate <- function(sel, sex) count(sel, sex) / sum(sexed & g$sex == sex)
    ratio <- function(sel) { r <- c(rate(sel, 1), rate(sel, 2)); min(r) / max(r) }
    hi <- p >= pnorm(0.5); lo <- p < pnorm(-0.5)
    list(key = k, d = cd[k, "effect"], lower = cd[k, "lower"], upper = cd[k, "upper"], ratioHigh = ratio(hi), ratioLow = ratio(lo),
      counts = c(count(hi, 1), count(hi, 2), count(lo, 1), count(lo, 2)))
  })
  list(group = name, n = nrow(g), male = sum(sexed & g$sex == 1), female = sum(sexed & g$sex == 2), scales = scales)
})
cat(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA))`;
type RScale = { key: string; d: number; lower: number; upper: number; ratioHigh: number; ratioLow: number; counts: number[] };
type RGroup = { group: string; n: number; male: number; female: number; scales: RScale[] };

describe("the shipped SPI norm files' gender differences against R", { timeout: 240_000 }, () => {
  test("per group and scale, d and its 95% interval equal psych::cohen.d's, and both four-fifths ratios equal R's count from the sten cut points, to 3 decimals", () => {
    const r = JSON.parse(runR(R_FAIRNESS, 200_000)) as RGroup[];
    assert.deepEqual(
      r.map((g) => g.group),
      GROUPS,
    );
    const close = (ours: number, theirs: number, what: string) => assert.ok(Math.abs(ours - theirs) < 0.0005, `${what}: Assay ${ours}, R ${theirs}`);
    let adverse = 0;
    let fair = 0;
    for (const g of r) {
      const file = shipped(g.group);
      // The same respondents: nobody left out by the build, the same men and women.
      assert.equal(file.sampleSize, g.n, g.group);
      assert.deepEqual([file.sample.gender.male, file.sample.gender.female], [g.male, g.female], g.group);
      const byKey = new Map(g.scales.map((s) => [s.key, s]));
      for (const scale of spi.scales) {
        const theirs = byKey.get(keyOf.get(scale.id)!)!;
        const ours = file.sample.genderDifferences[scale.id];
        const what = `${g.group} ${scale.id}`;
        close(ours.d, theirs.d, `${what} d`);
        close(ours.dLower, theirs.lower, `${what} d lower`);
        close(ours.dUpper, theirs.upper, `${what} d upper`);
        close(ours.fourFifths, theirs.ratioHigh, `${what} ratio at sten 7+`);
        close(ours.fourFifthsLow, theirs.ratioLow, `${what} ratio at sten 4-`);
        assert.deepEqual([ours.male.high, ours.female.high, ours.male.low, ours.female.low], theirs.counts, `${what} counts`);
        if (Math.min(ours.fourFifths, ours.fourFifthsLow) < 0.8) adverse++;
        else fair++;
      }
    }
    // Positive and negative controls: ratios on both sides of 0.80, and intervals of real width.
    assert.ok(adverse > 20 && fair > 20, `${adverse} scale-groups under 0.80, ${fair} at or over`);
    const adult = shipped('spi-sapa').sample.genderDifferences;
    assert.ok(
      Object.values(adult).every((d: any) => d.dLower < d.d && d.d < d.dUpper && d.dUpper - d.dLower > 0.1),
      'each interval surrounds its d',
    );
  });
});
