/** The items content/README.md says the SPI leaves out for what they ask (beliefs, politics, health): written here, apart from spi.json. */
export const REMOVED = ['q_345', 'q_660', 'q_1824', 'q_1825', 'q_1328', 'q_369', 'q_398', 'q_811'];
/** spi.keys with the non-IPIP items and REMOVED taken out, and a scale left with none (Conservatism) dropped: as R code. */
export const SHIPPED_KEYS = `
d <- psychTools::spi.dictionary
ipip <- rownames(d)[!is.na(d$item_scale) & d$item_scale == "IPIP"]
kept <- setdiff(ipip, c(${REMOVED.map((i) => `"${i}"`).join(', ')}))
keys <- lapply(psychTools::spi.keys, function(k) k[sub("^-", "", k) %in% kept])
keys <- keys[lengths(keys) > 0]`;

/** Their texts in SPI 1.0.0 (English from spi.dictionary, Dutch Assay's translation): a word check on asked items must catch each. */
export const OLD_TEXTS = [
  ['Believe in one true religion.', 'Ik geloof in één ware religie.'],
  ["Don't consider myself religious.", 'Ik beschouw mezelf niet als religieus.'],
  ['Tend to vote for conservative political candidates.', 'Ik stem meestal op conservatieve politieke kandidaten.'],
  ['Tend to vote for liberal political candidates.', 'Ik stem meestal op progressieve politieke kandidaten.'],
  ['Like to stand during the national anthem.', 'Ik sta graag op tijdens het volkslied.'],
  ['Believe that laws should be strictly enforced.', 'Ik vind dat wetten streng gehandhaafd moeten worden.'],
  ['Believe that we should be tough on crime.', 'Ik vind dat misdaad hard aangepakt moet worden.'],
  ['Feel a sense of worthlessness or hopelessness.', 'Ik voel me waardeloos of hopeloos.'],
] as const;

/**
 * Words of religion, politics, national symbols, criminal justice and health (GDPR art. 9 and
 * near it), English and Dutch, matched at a word's start.
 */
export const SPECIAL_WORDS =
  /\b(relig|god|church|faith|pray|politi|vote|voting|conservative|liberal|candidate|party|anthem|flag|patriot|nation|crime|criminal|laws?\b|enforce|worthless|hopeless|suicid|ill\b|illness|disease|health|medic|sex|gay|ethnic|race\b|racial|union|kerk|gelovig|bid\b|bidden|stem op|stem meestal|partij|volkslied|vlag|natie|misdaad|wetten|gehandhaafd|waardeloos|hopeloos|ziek|gezondheid|vakbond|etnisch)/i;
