# How the shipped SPI form stands against the published one (psychTools::spi.keys), in the adults
# of psychTools::spi (age 18 and over, every shipped item answered): per published scale its item
# count, and for each scale spi.json keeps its shipped item count and the Pearson r of its shipped
# score with its published score (both item means, psych::scoreItems). Prints JSON:
# {"items": 135, "n": adults, "scales": [{"key", "publishedItems", "items", "r"}, ...]}; a scale spi.json
# leaves out has items 0 and r null.
# Usage: Rscript --vanilla content/norms/spi-form.R content/instruments/spi.json
suppressMessages(library(psych))
args <- commandArgs(trailingOnly = TRUE)
def <- jsonlite::fromJSON(args[1], simplifyVector = FALSE)
key_of <- setNames(vapply(def$scales, function(s) s$key, ""), vapply(def$scales, function(s) s$id, ""))
shipped <- list()
for (item in def$items) {
  for (k in c(list(list(scale = item$scale, keying = item$keying)), item$alsoScales)) {
    key <- key_of[[k$scale]]
    shipped[[key]] <- c(shipped[[key]], paste0(if (k$keying == "negative") "-" else "", item$id))
  }
}
published <- psychTools::spi.keys
everything <- unique(sub("^-", "", unlist(published)))
spi <- psychTools::spi
adults <- spi[spi$age >= 18, ]
adults <- adults[complete.cases(adults[, everything]), ]
score <- function(keys) psych::scoreItems(keys, adults[, everything], min = 1, max = 6, impute = "none")$scores
theirs <- score(published)
ours <- score(shipped)
scales <- lapply(names(published), function(key) {
  kept <- key %in% names(shipped)
  list(key = key, publishedItems = length(published[[key]]), items = if (kept) length(shipped[[key]]) else 0L,
       r = if (kept) round(cor(ours[, key], theirs[, key]), 4) else NULL)
})
cat(jsonlite::toJSON(list(items = length(everything), n = nrow(adults), scales = scales), auto_unbox = TRUE, digits = NA, null = "null"), "\n")
