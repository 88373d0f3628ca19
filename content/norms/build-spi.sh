#!/usr/bin/env bash
# Builds the SPI's shipped norm groups (content/norms/spi-sapa*.json) from psychTools::spi, the
# SAPA project's 4,000 web volunteers. Rscript exports the adults' answers to a temporary CSV and
# says whom it left out; Assay's own `norms build --from-csv` then builds each group, leaving out
# respondents with integrity flags as it would a stored assessment. The raw data is never written
# here: its licence is the R package's.
#
# Usage: npm run build && content/norms/build-spi.sh [OUT_DIR]   (OUT_DIR: content/norms)
# Needs Rscript with psychTools and jsonlite. Same R package version, same files.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# One CSV per group, and per group the sentence that says who is in it and who was left out.
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
# psychTools codes sex 1 = male, 2 = female; Assay's Gender codes are the same, NA is unknown.
out <- data.frame(adults[, items], gender = ifelse(is.na(adults$sex), "", adults$sex), age = adults$age)
base <- sprintf(paste(
  "The SAPA Personality Inventory sample of the R package psychTools %s (psychTools::spi; Condon, 2018):",
  "%s web volunteers of the SAPA project (sapa-project.org) who answered online, not job applicants,",
  "in English. Exported by content/norms/build-spi.sh: %s under 18 left out, %s adults with a missing answer left out,",
  "%s adults kept."), version, fmt(n), fmt(minors), fmt(incomplete), fmt(nrow(out)))
groups <- list(
  list(file = "spi-sapa", rows = rep(TRUE, nrow(out)), who = ""),
  list(file = "spi-sapa-female", rows = !is.na(adults$sex) & adults$sex == 2, who = "women"),
  list(file = "spi-sapa-male", rows = !is.na(adults$sex) & adults$sex == 1, who = "men"),
  list(file = "spi-sapa-age18-24", rows = adults$age <= 24, who = "aged 18 to 24"),
  list(file = "spi-sapa-age25-34", rows = adults$age >= 25 & adults$age <= 34, who = "aged 25 to 34"),
  list(file = "spi-sapa-age35", rows = adults$age >= 35, who = "aged 35 and over")
)
for (g in groups) {
  about <- if (g$who == "") base else sprintf("%s Of these, only the %s %s (%s others left out).", base, fmt(sum(g$rows)), g$who, fmt(nrow(out) - sum(g$rows)))
  write.csv(out[g$rows, ], file.path(args[2], paste0(g$file, ".csv")), row.names = FALSE, quote = FALSE, na = "")
  writeLines(about, file.path(args[2], paste0(g$file, ".about")))
  message(sprintf("%s: %s", g$file, about))
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
    --from-csv "$tmp/$group.csv" --about "$(cat "$tmp/$group.about")" --out "$out/$group.json"
done
