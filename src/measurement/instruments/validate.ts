import { LANGUAGES, RESPONSE_POINTS, type Instrument } from './types.js';

/** Item counts the assessment types promise (TMA170 asks 170 items, TMA312 asks 312). */
export const EXPECTED = {
  TMA170: { assessmentType: 0, items: 170 },
  TMA312: { assessmentType: 1, items: 312 },
  // The SAPA Personality Inventory's 135 items less 7 EPQ items (licence) and 8 on beliefs or health (content/README.md).
  SPI: { assessmentType: 2, items: 120 },
} as const;

/** Instruments an ASSESSMENT_CONTENT_DIR may leave out: then the built-in file is used. */
export const OPTIONAL_IN_CONTENT_DIR: ReadonlySet<string> = new Set(['SPI']);

function localizedProblems(value: unknown, where: string): string[] {
  if (typeof value !== 'object' || value === null) return [`${where} must be an object with nl and en texts`];
  return LANGUAGES.filter((lang) => {
    const text = (value as Record<string, unknown>)[lang];
    return typeof text !== 'string' || text.trim() === '';
  }).map((lang) => `${where} has no ${lang} text`);
}

/** Every problem with an instrument file, in words an operator can act on; [] when sound. */
export function instrumentProblems(data: unknown, expectedCode: keyof typeof EXPECTED): string[] {
  if (typeof data !== 'object' || data === null) return ['the file does not hold a JSON object'];
  const inst = data as Partial<Instrument>;
  const problems: string[] = [];
  const expected = EXPECTED[expectedCode];

  if (inst.format !== 'assay-instrument/1') problems.push('format must be "assay-instrument/1"');
  if (inst.code !== expectedCode) problems.push(`code must be "${expectedCode}"`);
  if (inst.assessmentType !== expected.assessmentType) problems.push(`assessmentType must be ${expected.assessmentType}`);
  if (typeof inst.version !== 'string' || !inst.version) problems.push('version is missing');
  problems.push(...localizedProblems(inst.name, 'name'), ...localizedProblems(inst.description, 'description'));
  if (inst.kind !== undefined && inst.kind !== 'motivation' && inst.kind !== 'personality') problems.push('kind must be "motivation" or "personality"');
  if (!Number.isInteger(inst.estimatedMinutes) || (inst.estimatedMinutes ?? 0) < 1) problems.push('estimatedMinutes must be a positive integer');
  if (!Number.isInteger(inst.itemsPerPage) || (inst.itemsPerPage ?? 0) < 1 || (inst.itemsPerPage ?? 0) > 50) {
    problems.push('itemsPerPage must be an integer from 1 to 50');
  }

  const rs = inst.responseScale;
  const points = rs ? rs.max - rs.min + 1 : NaN;
  // Answers arrive as one or two digits (domain/flow.ts): 0 to 99.
  if (!rs || !Number.isInteger(rs.min) || !Number.isInteger(rs.max) || rs.min < 0 || rs.max > 99 || rs.min >= rs.max) {
    problems.push('responseScale needs integers 0 <= min < max <= 99');
  } else if (points < RESPONSE_POINTS.min || points > RESPONSE_POINTS.max) {
    problems.push(`responseScale must have ${RESPONSE_POINTS.min} to ${RESPONSE_POINTS.max} points, it has ${points}`);
  } else {
    for (const lang of LANGUAGES) {
      const labels = rs.labels?.[lang];
      if (!Array.isArray(labels) || labels.length !== rs.max - rs.min + 1 || labels.some((l) => typeof l !== 'string' || !l.trim())) {
        problems.push(`responseScale.labels.${lang} must hold ${rs.max - rs.min + 1} labels`);
      }
    }
  }

  if (inst.scoring?.method !== 'mean' || inst.scoring.reverseKeyed !== 'min+max-response') {
    problems.push('scoring must be { "method": "mean", "reverseKeyed": "min+max-response" }');
  }

  const scaleIds = new Set<string>();
  const scaleNumbers = new Set<number>();
  if (!Array.isArray(inst.scales) || inst.scales.length === 0) {
    problems.push('scales must be a non-empty list');
  } else {
    inst.scales.forEach((scale, i) => {
      if (typeof scale?.id !== 'string' || !scale.id) problems.push(`scales[${i}] has no id`);
      else if (scaleIds.has(scale.id)) problems.push(`scale "${scale.id}" appears twice`);
      else scaleIds.add(scale.id);
      if (!Number.isInteger(scale?.number) || scale.number < 1) problems.push(`scale "${scale?.id}" needs a positive integer number`);
      else if (scaleNumbers.has(scale.number)) problems.push(`scale number ${scale.number} appears twice`);
      else scaleNumbers.add(scale.number);
      problems.push(...localizedProblems(scale?.name, `scale "${scale?.id}" name`));
      problems.push(...localizedProblems(scale?.description, `scale "${scale?.id}" description`));
      const pub = scale?.published;
      if (pub !== undefined && (!Number.isInteger(pub?.items) || pub.items < 1 || typeof pub.r !== 'number' || Math.abs(pub.r) > 1))
        problems.push(`scale "${scale?.id}" published must be { items: a positive integer, r: from -1 to 1 }`);
    });
    // A domain is a scale of the instrument that is not itself under a domain: one level of grouping.
    const domains = new Map(inst.scales.map((s) => [s?.id, s?.domain]));
    for (const scale of inst.scales) {
      if (scale?.domain === undefined) continue;
      if (!domains.has(scale.domain) || scale.domain === scale.id || domains.get(scale.domain) !== undefined)
        problems.push(`scale "${scale.id}" has domain "${scale.domain}", which is not a scale without a domain`);
    }
  }

  if (!Array.isArray(inst.items)) {
    problems.push('items must be a list');
    return problems;
  }
  if (inst.items.length !== expected.items) problems.push(`${expectedCode} must have ${expected.items} items, found ${inst.items.length}`);
  const itemIds = new Set<string>();
  const used = new Set<string>();
  inst.items.forEach((item, i) => {
    const label = typeof item?.id === 'string' && item.id ? `item "${item.id}"` : `items[${i}]`;
    if (typeof item?.id !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(item.id)) problems.push(`${label} needs an id of letters, digits, _ or -`);
    else if (itemIds.has(item.id)) problems.push(`${label} appears twice`);
    else itemIds.add(item.id);
    if (!scaleIds.has(item?.scale)) problems.push(`${label} is on unknown scale "${item?.scale}"`);
    else used.add(item.scale);
    if (item?.keying !== 'positive' && item?.keying !== 'negative') problems.push(`${label} keying must be "positive" or "negative"`);
    problems.push(...alsoScalesProblems(item?.alsoScales, item?.scale, label, scaleIds, used));
    problems.push(...localizedProblems(item?.text, `${label} text`));
  });
  for (const id of scaleIds) if (!used.has(id)) problems.push(`scale "${id}" has no items`);
  const scaleOf = new Map(inst.items.map((item) => [item?.id, item?.scale]));
  problems.push(...pairProblems(inst.consistencyPairs, scaleOf, 'consistencyPairs'));
  problems.push(...pairProblems(inst.consistencyAntonyms, scaleOf, 'consistencyAntonyms'));
  if (inst.consistencyPairs !== undefined && inst.consistencyAntonyms !== undefined)
    problems.push('an instrument has consistencyPairs or consistencyAntonyms, not both');
  return problems;
}

/** consistencyPairs: two items of one scale; consistencyAntonyms: any two items. Each item in one pair at most. */
function pairProblems(pairs: unknown, scaleOf: ReadonlyMap<unknown, unknown>, field: 'consistencyPairs' | 'consistencyAntonyms'): string[] {
  if (pairs === undefined) return [];
  if (!Array.isArray(pairs)) return [`${field} must be a list of [itemId, itemId] pairs`];
  const problems: string[] = [];
  const seen = new Set<unknown>();
  pairs.forEach((pair: unknown, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) return problems.push(`${field}[${i}] must be two item ids`);
    const [a, b] = pair as unknown[];
    if (!scaleOf.has(a) || !scaleOf.has(b)) return problems.push(`${field}[${i}] names an unknown item`);
    if (a === b) problems.push(`${field}[${i}] must be two different items`);
    else if (field === 'consistencyPairs' && scaleOf.get(a) !== scaleOf.get(b)) problems.push(`${field}[${i}] must be two items of one scale`);
    for (const id of [a, b]) {
      if (seen.has(id)) problems.push(`item "${String(id)}" is in two consistency pairs`);
      seen.add(id);
    }
    return undefined;
  });
  return problems;
}

/** Problems with an item's further scales: known, not its own scale, each once, each keyed. Marks them used. */
function alsoScalesProblems(also: unknown, own: unknown, label: string, scaleIds: ReadonlySet<string>, used: Set<string>): string[] {
  if (also === undefined) return [];
  if (!Array.isArray(also)) return [`${label} alsoScales must be a list of { scale, keying }`];
  const problems: string[] = [];
  const seen = new Set<unknown>([own]);
  for (const entry of also as Array<{ scale?: unknown; keying?: unknown } | null>) {
    const scale = entry?.scale;
    if (typeof scale !== 'string' || !scaleIds.has(scale)) problems.push(`${label} also counts for unknown scale "${String(scale)}"`);
    else if (seen.has(scale)) problems.push(`${label} counts for scale "${scale}" twice`);
    else used.add(scale);
    seen.add(scale);
    if (entry?.keying !== 'positive' && entry?.keying !== 'negative') problems.push(`${label} keying on "${String(scale)}" must be "positive" or "negative"`);
  }
  return problems;
}
