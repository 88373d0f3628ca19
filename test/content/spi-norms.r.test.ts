import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { instruments } from '../helpers/content.js';
import { runR } from '../helpers/r.js';
import { tempDir } from '../helpers/server.js';
import { SHIPPED_KEYS } from '../helpers/spi-removed.js';

const spi = instruments.get(2)!;
const NORMS = join(ROOT, 'content', 'norms');
const GROUPS = ['spi-sapa', 'spi-sapa-female', 'spi-sapa-male', 'spi-sapa-age18-24', 'spi-sapa-age25-34', 'spi-sapa-age35'];
const shipped = (group: string, dir = NORMS) => JSON.parse(readFileSync(join(dir, `${group}.json`), 'utf8'));
/** The R key each scale of the instrument file says it implements. */
const keyOf = new Map(spi.scales.map((s) => [s.id, (s as unknown as { key: string }).key]));

// R's own account of the adults in psychTools::spi: how many in each group, and each scale's
// Cronbach's alpha on the items of spi.keys the SPI ships (reverse-keyed items turned round by
// hand, then psych::alpha without its own key checking); per scale its item count there and in
// spi.keys, and the r of its score on the shipped items with its published score (psych::scoreItems).
const R_ALPHAS = `
suppressMessages({ library(psych); library(psychTools) })
${SHIPPED_KEYS}
a <- spi[spi$age >= 18, ]
everything <- unique(sub("^-", "", unlist(spi.keys)))
ours <- psych::scoreItems(keys, a[, everything], min = 1, max = 6)$scores
theirs <- psych::scoreItems(spi.keys, a[, everything], min = 1, max = 6)$scores
form <- lapply(names(keys), function(k) list(items = length(keys[[k]]), published = length(spi.keys[[k]]), r = cor(ours[, k], theirs[, k])))
names(form) <- names(keys)
alphas <- sapply(keys, function(k) {
  items <- sub("^-", "", k)
  x <- a[, items]
  neg <- startsWith(k, "-")
  x[, neg] <- 7 - x[, neg]
  psych::alpha(x, check.keys = FALSE, warnings = FALSE)$total$raw_alpha
})
n <- list("spi-sapa" = nrow(a), "spi-sapa-female" = sum(a$sex == 2, na.rm = TRUE), "spi-sapa-male" = sum(a$sex == 1, na.rm = TRUE),
  "spi-sapa-age18-24" = sum(a$age <= 24), "spi-sapa-age25-34" = sum(a$age >= 25 & a$age <= 34), "spi-sapa-age35" = sum(a$age >= 35))
cat(jsonlite::toJSON(list(all = nrow(spi), alphas = as.list(alphas), n = n, form = form, published = length(everything)), auto_unbox = TRUE, digits = NA))`;
type RAccount = {
  all: number;
  alphas: Record<string, number>;
  n: Record<string, number>;
  form: Record<string, { items: number; published: number; r: number }>;
  published: number;
};

describe('the SPI norm files shipped in content/norms', { timeout: 180_000 }, () => {
  test('content/norms/build-spi.sh, run again into another folder, writes the very files committed', () => {
    const out = tempDir('assay-spi-norms-');
    execFileSync(join(NORMS, 'build-spi.sh'), [out], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 150_000 });
    for (const group of GROUPS) assert.equal(readFileSync(join(out, `${group}.json`), 'utf8'), readFileSync(join(NORMS, `${group}.json`), 'utf8'), group);
  });

  let account: RAccount | undefined;
  const rAccount = () => (account ??= JSON.parse(runR(R_ALPHAS)) as RAccount);

  test("each group's N is R's count of adults in it, and each scale's alpha in the adult group is psych::alpha's on the same respondents, to 3 decimals", () => {
    const r = rAccount();
    assert.equal(r.all, 4000);
    for (const group of GROUPS) assert.equal(shipped(group).sampleSize, r.n[group], group);
    // The groups add up: sex unknown for some, but the age bands cover every adult.
    assert.equal(r.n['spi-sapa-age18-24']! + r.n['spi-sapa-age25-34']! + r.n['spi-sapa-age35']!, r.n['spi-sapa']);
    const file = shipped('spi-sapa');
    assert.equal(Object.keys(file.scales).length, 31);
    const alphas = spi.scales.map((s) => [keyOf.get(s.id)!, file.scales[s.id].reliability.alpha as number, r.alphas[keyOf.get(s.id)!]!] as const);
    for (const [key, ours, theirs] of alphas) assert.ok(Math.abs(ours - theirs) < 0.0005, `${key}: Assay ${ours}, R ${theirs}`);
    // Positive control: the alphas differ from scale to scale, so a wrong pairing would show.
    assert.ok(new Set(alphas.map(([, ours]) => ours.toFixed(2))).size > 10);
  });

  test("per scale, the adult group's items and spi.json's published item count and r with the published score are R's (psych::scoreItems with spi.keys), r to 3 decimals", () => {
    const r = rAccount();
    const file = shipped('spi-sapa');
    const form = (spi as unknown as { publishedForm: { items: number; scales: number; leftOut: Array<{ key: string; items: number }> } }).publishedForm;
    assert.deepEqual(form, { source: 'psychTools::spi.keys', items: r.published, scales: 32, sampleSize: r.n['spi-sapa'], leftOut: [{ key: 'Conservatism', items: 5 }] });
    assert.deepEqual(Object.keys(r.form), [...keyOf.values()]);
    for (const s of spi.scales) {
      const theirs = r.form[keyOf.get(s.id)!]!;
      const published = (s as unknown as { published: { items: number; r: number } }).published;
      assert.equal(file.scales[s.id].reliability.items.length, theirs.items, `${s.id}: items in the norm file`);
      assert.equal(published.items, theirs.published, `${s.id}: items in spi.keys`);
      assert.ok(Math.abs(published.r - theirs.r) < 0.0005, `${s.id}: r ${published.r}, R ${theirs.r}`);
    }
    // Positive control: shortened scales correlate below 1 and differ, so a wrong pairing would show.
    const shortened = Object.values(r.form).filter((f) => f.items < f.published);
    assert.ok(shortened.length >= 8 && shortened.every((f) => f.r < 0.999), `${shortened.length} shortened`);
    assert.ok(new Set(shortened.map((f) => f.r.toFixed(3))).size >= 6);
  });

  test('each file says what its sample is: SAPA web volunteers, not job applicants, adults only, with its exclusions', () => {
    for (const group of GROUPS) {
      const f = shipped(group);
      assert.equal(f.illustrative, false, group);
      assert.match(f.source, /web volunteers of the SAPA project .* not job applicants/, group);
      assert.match(f.source, /635 under 18 left out, 0 adults with a missing answer left out, 3,365 adults kept/, group);
      assert.match(f.source, new RegExp(`N = ${f.sampleSize.toLocaleString('en')}\\.`), group);
    }
  });

  test("each narrow scale's domain in spi.json is the domain its score correlates with most in the adult sample, leaving out the items they share (R)", () => {
    const r = JSON.parse(
      runR(`
suppressMessages({ library(psychTools) })
${SHIPPED_KEYS}
a <- spi[spi$age >= 18, ]
score <- function(k) { items <- sub("^-", "", k); x <- a[, items, drop = FALSE]; neg <- startsWith(k, "-"); x[, neg] <- 7 - x[, neg]; rowMeans(x) }
domains <- names(keys)[1:5]
out <- lapply(names(keys)[6:length(keys)], function(n) {
  own <- sub("^-", "", keys[[n]])
  r <- sapply(domains, function(dn) { k <- keys[[dn]]; cor(score(keys[[n]]), score(k[!(sub("^-", "", k) %in% own)])) })
  list(scale = n, domain = domains[which.max(abs(r))], r = max(abs(r)))
})
cat(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA))`),
    ) as Array<{ scale: string; domain: string; r: number }>;
    const byKey = new Map(spi.scales.map((s) => [keyOf.get(s.id)!, s]));
    assert.equal(r.length, 26);
    for (const { scale, domain } of r) assert.equal(byKey.get(scale)!.domain, byKey.get(domain)!.id, scale);
    // Positive control: the five domains are all used, so a constant answer would fail.
    assert.equal(new Set(r.map((x) => x.domain)).size, 5);
  });
});
