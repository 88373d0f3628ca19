import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { instruments } from '../domain/results/content.js';
import { runR } from '../helpers/r.js';

const spi = instruments.get(2)!;
const GROUPS = ['spi-sapa', 'spi-sapa-female', 'spi-sapa-male', 'spi-sapa-age18-24', 'spi-sapa-age25-34', 'spi-sapa-age35'];
type Consistency = { pairs: Array<{ items: [string, string]; r: number }>; percentile: number; threshold: number };
const shipped = (group: string) => JSON.parse(readFileSync(join(ROOT, 'content', 'norms', `${group}.json`), 'utf8')).consistency as Consistency;

// R's own account, written apart from content/norms/spi-pairs.R and from src/: the adults of
// psychTools::spi on the items of spi.json; every item pair at r <= -.40, most negative
// first, kept when neither item is taken yet and neither item's narrow scale has a pair yet; then each adult's consistency score (r over the
// pairs of the first answer with 7 minus the second, x 100, rounded half up, 0 when negative or
// undefined) and, per group, the 1st percentile as R's quantile type 1.
const R_CONSISTENCY = `
def <- jsonlite::fromJSON("${join(ROOT, 'content', 'instruments', 'spi.json')}", simplifyVector = FALSE)$items
items <- vapply(def, function(i) i$id, "")
narrow <- vapply(def, function(i) i$scale, "")
spi <- psychTools::spi
a <- spi[spi$age >= 18, ]
a <- a[complete.cases(a[, items]), ]
x <- as.matrix(a[, items])
r <- cor(x)
r[lower.tri(r, diag = TRUE)] <- NA
taken <- c(); pairs <- list()
while (TRUE) {
  m <- suppressWarnings(min(r, na.rm = TRUE))
  if (!is.finite(m) || m > -0.40) break
  w <- which(r == m, arr.ind = TRUE)[1, ]
  p <- items[w]
  pairs[[length(pairs) + 1]] <- list(items = p, r = m)
  r[w[1], ] <- NA; r[, w[1]] <- NA; r[w[2], ] <- NA; r[, w[2]] <- NA
  gone <- narrow %in% narrow[w]
  r[gone, ] <- NA; r[, gone] <- NA
}
first <- sapply(pairs, function(p) p$items[1]); second <- sapply(pairs, function(p) p$items[2])
score <- apply(x, 1, function(row) {
  v <- suppressWarnings(cor(row[first], 7 - row[second]))
  if (is.na(v)) 0 else max(0, floor(100 * v + 0.5))
})
groups <- list("spi-sapa" = rep(TRUE, nrow(a)), "spi-sapa-female" = !is.na(a$sex) & a$sex == 2, "spi-sapa-male" = !is.na(a$sex) & a$sex == 1,
  "spi-sapa-age18-24" = a$age <= 24, "spi-sapa-age25-34" = a$age >= 25 & a$age <= 34, "spi-sapa-age35" = a$age >= 35)
out <- lapply(groups, function(g) {
  s <- score[g]; q <- unname(quantile(s, 0.01, type = 1))
  rs <- sapply(pairs, function(p) cor(a[g, p$items[1]], a[g, p$items[2]]))
  list(threshold = q, atOrBelow = mean(s <= q), below = mean(s < q), r = rs)
})
pairScales <- lapply(pairs, function(p) unique(narrow[match(p$items, items)]))
cat(jsonlite::toJSON(list(pairs = pairs, groups = out, pairScales = pairScales), auto_unbox = TRUE, digits = NA))`;

describe('the SPI consistency pairs and thresholds, against R on psychTools::spi', { timeout: 120_000 }, () => {
  test("spi.json's antonym pairs are R's, every shipped group records each pair's r in its own sample and its own 1st percentile as the threshold", () => {
    const r = JSON.parse(runR(R_CONSISTENCY)) as {
      pairs: Array<{ items: [string, string]; r: number }>;
      groups: Record<string, { threshold: number; atOrBelow: number; below: number; r: number[] }>;
      pairScales: string[][];
    };
    assert.deepEqual(
      spi.consistencyAntonyms,
      r.pairs.map((p) => p.items),
    );
    // Positive control: the rule finds pairs, the weakest is still at -.40 or lower, and no narrow scale has two.
    assert.ok(r.pairs.length >= 12 && r.pairs.every((p) => p.r <= -0.4), `${r.pairs.length} pairs`);
    const scales = r.pairScales.flat();
    assert.equal(new Set(scales).size, scales.length, 'a narrow scale with two pairs');
    for (const group of GROUPS) {
      const file = shipped(group);
      const theirs = r.groups[group]!;
      assert.deepEqual(
        file.pairs.map((p) => p.items),
        r.pairs.map((p) => p.items),
        group,
      );
      file.pairs.forEach((p, i) => assert.ok(Math.abs(p.r - theirs.r[i]!) < 0.00005, `${group} ${p.items.join('/')}: ${p.r}, R ${theirs.r[i]}`));
      assert.equal(file.percentile, 1, group);
      assert.equal(file.threshold, theirs.threshold, group);
      // What a 1st percentile means: at least 1% of the group at or below it, under 1% below it.
      assert.ok(theirs.atOrBelow >= 0.01 && theirs.below < 0.01, `${group}: ${theirs.below} below, ${theirs.atOrBelow} at or below`);
    }
    // Positive control: the thresholds differ between groups, so a threshold copied across them would show.
    assert.ok(new Set(GROUPS.map((g) => shipped(g).threshold)).size > 2);
  });
});
