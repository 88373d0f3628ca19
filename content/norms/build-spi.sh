#!/usr/bin/env bash
# Builds the SPI's shipped norm groups (content/norms/spi-sapa*.json) from psychTools::spi, the
# SAPA project's 4,000 web volunteers. Rscript exports the adults' answers to a temporary CSV and
# says whom it left out; Assay's own `norms build --from-csv` then builds each group, leaving out
# respondents with integrity flags as it would a stored assessment. The raw data is never written
# here: its licence is the R package's.
#
# First, in the same adults, it finds how the shipped form stands against the published one
# (spi-form.R: per scale the published item count and the r of the shipped score with the published
# score), and checks that content/instruments/spi.json declares exactly that (publishedForm, each
# scale's published); with --write it writes it there instead. `norms build` then calibrates the
# careless-responding indices on every group's own sample and records them (the `careless` block).
#
# Usage: npm run build && content/norms/build-spi.sh [--write] [OUT_DIR]   (OUT_DIR: content/norms)
# Needs Rscript with psych, psychTools and jsonlite. Same R package version, same files.
set -euo pipefail
write=""
if [ "${1:-}" = "--write" ]; then write=1; shift; fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

spi="$root/content/instruments/spi.json"
Rscript --vanilla "$here/spi-form.R" "$spi" >"$tmp/form.json"
node --input-type=module - "$spi" "$tmp/form.json" "$write" <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
const [file, formFile, write] = process.argv.slice(2);
const instrument = JSON.parse(readFileSync(file, 'utf8'));
const form = JSON.parse(readFileSync(formFile, 'utf8'));
const byKey = new Map(form.scales.map((s) => [s.key, s]));
const publishedForm = {
  source: 'psychTools::spi.keys',
  items: form.items,
  scales: form.scales.length,
  sampleSize: form.n,
  leftOut: form.scales.filter((s) => s.items === 0).map((s) => ({ key: s.key, items: s.publishedItems })),
};
// Key order kept: publishedForm after provenance, each scale's published last.
const scales = instrument.scales.map(({ published: _, ...s }) => {
  const f = byKey.get(s.key);
  return { ...s, published: { items: f.publishedItems, r: f.r } };
});
const { scoring, publishedForm: _f, ...rest } = instrument;
const entries = Object.entries({ ...rest, scales }).flatMap(([k, v]) => (k === 'provenance' ? [[k, v], ['publishedForm', publishedForm]] : [[k, v]]));
const wanted = JSON.stringify({ ...Object.fromEntries(entries), scoring }, null, 2) + '\n';
if (wanted === readFileSync(file, 'utf8')) process.exit(0);
if (!write) {
  console.error(`spi.json's publishedForm or scales' published are not what spi-form.R finds; rerun with --write to write them:\n${JSON.stringify({ publishedForm })}`);
  process.exit(1);
}
writeFileSync(file, wanted);
console.error(`wrote the published form's figures to ${file}`);
JS

# One CSV per group; per group the account of who is in it and who was left out (its source), and
# the plain description a report shows, in English and in Dutch.
Rscript --vanilla - "$root/content/instruments/spi.json" "$tmp" <<'R'
args <- commandArgs(trailingOnly = TRUE)
items <- vapply(jsonlite::fromJSON(args[1], simplifyVector = FALSE)$items, function(i) i$id, "")
spi <- psychTools::spi
version <- as.character(packageVersion("psychTools"))
n <- nrow(spi)
minors <- sum(spi$age < 18)
adults <- spi[spi$age >= 18, ]
incomplete <- sum(!complete.cases(adults[, items]))
adults <- adults[complete.cases(adults[, items]), ]
fmt <- function(x) format(x, big.mark = ",")
fmt_nl <- function(x) format(x, big.mark = ".", decimal.mark = ",")
# psychTools codes sex 1 = male, 2 = female; Assay's Gender codes are the same, NA is unknown.
out <- data.frame(adults[, items], gender = ifelse(is.na(adults$sex), "", adults$sex), age = adults$age)
base <- sprintf(paste(
  "The SAPA Personality Inventory sample of the R package psychTools %s (psychTools::spi; Condon, 2018):",
  "%s web volunteers of the SAPA project (sapa-project.org) who answered online, not job applicants,",
  "in English. Exported by content/norms/build-spi.sh: %s under 18 left out, %s adults with a missing answer left out,",
  "%s adults kept."), version, fmt(n), fmt(minors), fmt(incomplete), fmt(nrow(out)))
# For the descriptions: en = "<N> <en> of the SAPA project<age> who answered ...", nl = "<N> <nl> die de vragenlijst ... <via>online ...".
groups <- list(
  list(file = "spi-sapa", rows = rep(TRUE, nrow(out)), who = "",
       en = "adult web volunteers", age = "", nl = "volwassen vrijwilligers", via = ""),
  list(file = "spi-sapa-female", rows = !is.na(adults$sex) & adults$sex == 2, who = "women",
       en = "adult women among the web volunteers", age = "", nl = "volwassen vrouwen", via = "als vrijwilliger "),
  list(file = "spi-sapa-male", rows = !is.na(adults$sex) & adults$sex == 1, who = "men",
       en = "adult men among the web volunteers", age = "", nl = "volwassen mannen", via = "als vrijwilliger "),
  list(file = "spi-sapa-age18-24", rows = adults$age <= 24, who = "aged 18 to 24",
       en = "web volunteers", age = " aged 18 to 24", nl = "vrijwilligers van 18 tot en met 24 jaar", via = ""),
  list(file = "spi-sapa-age25-34", rows = adults$age >= 25 & adults$age <= 34, who = "aged 25 to 34",
       en = "web volunteers", age = " aged 25 to 34", nl = "vrijwilligers van 25 tot en met 34 jaar", via = ""),
  list(file = "spi-sapa-age35", rows = adults$age >= 35, who = "aged 35 and over",
       en = "web volunteers", age = " aged 35 and over", nl = "vrijwilligers van 35 jaar en ouder", via = "")
)
for (g in groups) {
  n_g <- sum(g$rows)
  about <- if (g$who == "") base else sprintf("%s Of these, only the %s %s (%s others left out).", base, fmt(n_g), g$who, fmt(nrow(out) - n_g))
  en <- sprintf("%s %s of the SAPA project%s who answered online in English; not job applicants.", fmt(n_g), g$en, g$age)
  nl <- sprintf("%s %s die de vragenlijst van het SAPA-project %sonline in het Engels invulden; geen sollicitanten.", fmt_nl(n_g), g$nl, g$via)
  write.csv(out[g$rows, ], file.path(args[2], paste0(g$file, ".csv")), row.names = FALSE, quote = FALSE, na = "")
  writeLines(about, file.path(args[2], paste0(g$file, ".about")))
  writeLines(en, file.path(args[2], paste0(g$file, ".en")))
  writeLines(nl, file.path(args[2], paste0(g$file, ".nl")))
  message(sprintf("%s: %s\n  %s\n  %s", g$file, about, en, nl))
}
R

name() {
  case "$1" in
    spi-sapa) echo "SAPA web volunteers, adults (psychTools::spi)" ;;
    spi-sapa-female) echo "SAPA web volunteers, adult women (psychTools::spi)" ;;
    spi-sapa-male) echo "SAPA web volunteers, adult men (psychTools::spi)" ;;
    spi-sapa-age18-24) echo "SAPA web volunteers, aged 18 to 24 (psychTools::spi)" ;;
    spi-sapa-age25-34) echo "SAPA web volunteers, aged 25 to 34 (psychTools::spi)" ;;
    spi-sapa-age35) echo "SAPA web volunteers, aged 35 and over (psychTools::spi)" ;;
  esac
}
for group in spi-sapa spi-sapa-female spi-sapa-male spi-sapa-age18-24 spi-sapa-age25-34 spi-sapa-age35; do
  "$root/bin/assay" norms build --instrument 2 --language en --name "$(name "$group")" \
    --from-csv "$tmp/$group.csv" --about "$(cat "$tmp/$group.about")" \
    --description-en "$(cat "$tmp/$group.en")" --description-nl "$(cat "$tmp/$group.nl")" --out "$out/$group.json"
done
