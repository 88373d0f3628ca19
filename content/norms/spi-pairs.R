# The SPI's consistency pairs (content/instruments/spi.json, consistencyAntonyms), found in the
# adults of psychTools::spi (age 18 and over, every shipped item answered): the
# item pairs whose answers correlate at r <= -0.40 (Pearson, across respondents), taken greedily
# from the most negative r up, each item in one pair at most and no two pairs on a common narrow
# scale (a pair's narrow scales: those of its two items), as TMA's pairs are one per scale. Within a pair, the item that comes
# first in spi.json comes first. Prints them as JSON: [{"items": [a, b], "r": r}, ...].
# Usage: Rscript --vanilla content/norms/spi-pairs.R content/instruments/spi.json
args <- commandArgs(trailingOnly = TRUE)
cutoff <- -0.40
instrument <- jsonlite::fromJSON(args[1], simplifyVector = FALSE)$items
items <- vapply(instrument, function(i) i$id, "")
narrow <- setNames(vapply(instrument, function(i) i$scale, ""), items)
spi <- psychTools::spi
adults <- spi[spi$age >= 18, items]
adults <- adults[complete.cases(adults), ]
r <- cor(adults)
at <- which(upper.tri(r) & r <= cutoff, arr.ind = TRUE)
candidates <- data.frame(a = items[at[, 1]], b = items[at[, 2]], r = r[at])
candidates <- candidates[order(candidates$r), ]
used <- character(0)
scales <- character(0)
pairs <- list()
for (k in seq_len(nrow(candidates))) {
  p <- candidates[k, ]
  if (p$a %in% used || p$b %in% used || any(narrow[c(p$a, p$b)] %in% scales)) next
  used <- c(used, p$a, p$b)
  scales <- c(scales, narrow[c(p$a, p$b)])
  pairs[[length(pairs) + 1]] <- list(items = c(p$a, p$b), r = round(p$r, 4))
}
cat(jsonlite::toJSON(pairs, auto_unbox = TRUE, digits = NA), "\n")
