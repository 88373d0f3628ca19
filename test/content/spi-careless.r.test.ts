import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { carelessModel, carelessValues } from '../../src/measurement/careless/indices.js';
import { CARELESS_INDICES, type CarelessNorm } from '../../src/measurement/types.js';
import { instruments } from '../helpers/content.js';
import { runR } from '../helpers/r.js';

const spi = instruments.get(2)!;
const normFile = (group: string) => join(ROOT, 'content', 'norms', `${group}.json`);
const shipped = (group: string) => JSON.parse(readFileSync(normFile(group), 'utf8')).careless as CarelessNorm;

// R's own account, written apart from src/: the adults of psychTools::spi on the items of
// spi.json. Synonym pairs: every item pair (first item earlier in spi.json) with |r| >= .50.
// Per adult: even-odd (per narrow scale of 2+ items, keyed answers, the means of the items at odd
// and at even places; r across scales of odd with even means, Spearman-Brown 2r/(1+r), at least
// -1, 0 when r does not exist), synonyms (r across pairs of the first answer with the second,
// 7 minus it where the pair's r < 0; 0 when it does not exist), long-string (rle over the items in
// order) and the squared Mahalanobis distance (stats::mahalanobis, the sample's mean and cov). Then
// the flags under the file's thresholds, strictly beyond them.
const R_CARELESS = `
def <- jsonlite::fromJSON("${join(ROOT, 'content', 'instruments', 'spi.json')}", simplifyVector = FALSE)$items
items <- vapply(def, function(i) i$id, "")
narrow <- vapply(def, function(i) i$scale, "")
negative <- vapply(def, function(i) i$keying == "negative", TRUE)
spi <- psychTools::spi
a <- spi[spi$age >= 18, ]
a <- a[complete.cases(a[, items]), ]
x <- as.matrix(a[, items])
r <- cor(x)
at <- which(upper.tri(r) & abs(r) >= 0.5, arr.ind = TRUE)
at <- at[order(at[, 1], at[, 2]), , drop = FALSE]
pairs <- lapply(seq_len(nrow(at)), function(k) list(items = items[at[k, ]], r = r[at[k, 1], at[k, 2]]))
keyed <- x; keyed[, negative] <- 7 - keyed[, negative]
scales <- Filter(function(s) sum(narrow == s) >= 2, unique(narrow))
evenodd <- function(row) {
  odd <- sapply(scales, function(s) { v <- row[narrow == s]; mean(v[seq(1, length(v), 2)]) })
  even <- sapply(scales, function(s) { v <- row[narrow == s]; mean(v[seq(2, length(v), 2)]) })
  e <- suppressWarnings(cor(odd, even))
  if (is.na(e)) 0 else max(-1, 2 * e / (1 + e))
}
synonyms <- function(row) {
  y <- row[at[, 2]]; y[r[at] < 0] <- 7 - y[r[at] < 0]
  s <- suppressWarnings(cor(row[at[, 1]], y))
  if (is.na(s)) 0 else s
}
longstring <- function(row) max(rle(as.vector(row))$lengths)
ix <- data.frame(
  EvenOdd = apply(keyed, 1, evenodd),
  Synonyms = apply(x, 1, synonyms),
  LongString = apply(x, 1, longstring),
  Outlier = mahalanobis(x, colMeans(x), cov(x))
)
c <- jsonlite::fromJSON("${normFile('spi-sapa')}", simplifyVector = FALSE)$careless
flag <- sapply(names(ix), function(k) {
  t <- c$indices[[k]]
  if (t$direction == "low") ix[[k]] < t$threshold else ix[[k]] > t$threshold
})
pick <- round(seq(1, nrow(x), length.out = 50))
cat(jsonlite::toJSON(list(
  pairs = pairs,
  sample = lapply(pick, function(i) list(answers = as.list(x[i, ]), indices = as.list(ix[i, ]))),
  falsePositive = as.list(colMeans(flag)),
  flagged = mean(apply(flag, 1, any)),
  n = nrow(x)
), auto_unbox = TRUE, digits = NA))`;

describe('the careless-responding indices, against R on psychTools::spi', { timeout: 180_000 }, () => {
  test("the adult norm group's synonym pairs are R's; the four indices equal R's on 50 adults; R flags at most 1% of the adults under the file's thresholds", () => {
    const r = JSON.parse(runR(R_CARELESS, 170_000)) as {
      pairs: Array<{ items: [string, string]; r: number }>;
      sample: Array<{ answers: Record<string, number>; indices: Record<string, number> }>;
      falsePositive: Record<string, number>;
      flagged: number;
      n: number;
    };
    const norm = shipped('spi-sapa');
    assert.deepEqual(
      norm.synonyms.pairs.map((p) => p.items),
      r.pairs.map((p) => p.items),
    );
    norm.synonyms.pairs.forEach((p, i) => assert.ok(Math.abs(p.r - r.pairs[i]!.r) < 0.00005, `${p.items.join('/')}: ${p.r}, R ${r.pairs[i]!.r}`));
    // Positive control: both kinds of pair are there.
    assert.ok(r.pairs.some((p) => p.r < 0) && r.pairs.some((p) => p.r > 0) && r.pairs.length >= 40, `${r.pairs.length} pairs`);
    const model = carelessModel(norm);
    assert.equal(r.sample.length, 50);
    for (const [k, person] of r.sample.entries()) {
      const ours = carelessValues(spi, model, new Map(Object.entries(person.answers)));
      const theirs = person.indices;
      for (const ix of ['EvenOdd', 'Synonyms'] as const) assert.ok(Math.abs(ours[ix] - theirs[ix]!) < 1e-9, `${k} ${ix}: ${ours[ix]}, R ${theirs[ix]}`);
      assert.equal(ours.LongString, theirs.LongString, `${k} LongString`);
      // The file keeps the covariance to 6 decimals; R uses it unrounded.
      assert.ok(Math.abs(ours.Outlier - theirs.Outlier!) / theirs.Outlier! < 1e-3, `${k} Outlier: ${ours.Outlier}, R ${theirs.Outlier}`);
    }
    // Positive control: the 50 spread on every index, so a constant would not pass.
    for (const ix of CARELESS_INDICES) assert.ok(new Set(r.sample.map((p) => p.indices[ix])).size > 3, ix);
    assert.ok(r.flagged <= 0.01, `R flags ${r.flagged} of the adults`);
    assert.ok(r.flagged > 0.005, `R flags ${r.flagged}: the thresholds are not calibrated to the 1%`);
    assert.ok(Math.abs(r.flagged - norm.flagged) <= 1 / r.n + 1e-9, `file ${norm.flagged}, R ${r.flagged}`);
    for (const ix of CARELESS_INDICES)
      assert.ok(Math.abs(r.falsePositive[ix]! - norm.indices[ix].falsePositive) <= 1 / r.n + 1e-9, `${ix}: file ${norm.indices[ix].falsePositive}, R ${r.falsePositive[ix]}`);
  });
});
