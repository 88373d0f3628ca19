import type { LifecycleStatus } from '../../lifecycle/rules.js';
import type { Instrument } from '../../measurement/instruments/types.js';
import type { Result } from '../../measurement/result.js';
import { bandText } from '../../reports/model.js';
import { sha256 } from '../../security/tokens.js';

/**
 * Greenhouse's Assessment Partner API in pure functions: what list_tests, send_test and
 * test_status say, from Assay's rows and results. Field names are Greenhouse's (snake case).
 */

/** Marks what this door ordered: test_status answers for these only. */
export const ORDERED_VIA = 'greenhouse';

/** How long a partner_profile_url opens the report: Greenhouse keeps the link it read at completion and asks no more. */
export const PROFILE_LINK_DAYS = 180;

/** Greenhouse refuses keys of 171 characters or more; ours are 35. */
export const MAX_KEY_LENGTH = 170;

/** Greenhouse's error body: the one shape its documentation uses for errors, a list of messages. */
export const errorsBody = (message: string) => ({ errors: [message] });

export interface PartnerTest {
  partner_test_id: string;
  partner_test_name: string;
}

/** Every loaded instrument, its AssessmentType as the id (a string, as Greenhouse requires). */
export function listTests(instruments: Iterable<Instrument>): PartnerTest[] {
  return [...instruments]
    .sort((a, b) => a.assessmentType - b.assessmentType)
    .map((i) => ({ partner_test_id: String(i.assessmentType), partner_test_name: `${i.name.en} (${i.code})` }));
}

/** The AssessmentType a partner_test_id names, if it names a loaded instrument. */
export function assessmentTypeOf(partnerTestId: string, instruments: ReadonlyMap<number, Instrument>): number | undefined {
  if (!/^\d{1,4}$/.test(partnerTestId)) return undefined;
  const type = Number(partnerTestId);
  return instruments.has(type) ? type : undefined;
}

/**
 * The candidate's ExternalId: stable for one person in one tenant, so a second test for them
 * reuses the candidate. From the profile URL's origin and path (the person, /people/{id}), not
 * its query (application_id differs per job). The tenant is in the hash because ExternalIds are
 * unique across tenants, and two tenants may connect the same Greenhouse account.
 */
export function externalIdFor(tenantId: string, greenhouseProfileUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(greenhouseProfileUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return 'gh-' + sha256(`${tenantId}\n${url.origin}${url.pathname.replace(/\/+$/, '')}`).slice(0, 40);
}

/**
 * partner_status. Greenhouse documents one value, "complete" (results available); any other
 * string means not yet. Assay says which of its states the test is in.
 */
export function partnerStatus(status: LifecycleStatus): string {
  return { Created: 'sent', Started: 'in_progress', Completed: 'complete', Cancelled: 'cancelled', Expired: 'expired' }[status];
}

/**
 * partner_score per instrument. TMA170 and TMA312 are profiles of 26 work motivations, the SPI a
 * profile of 5 personality domains and 26 narrower scales: a higher sten is not a better
 * candidate, so any one number (a mean of stens, say) would rank candidates on nothing the
 * instrument measures. They score null; the stens are in metadata.
 */
const SCORE: Record<string, ((r: Result) => number | null) | undefined> = {
  TMA170: () => null,
  TMA312: () => null,
  SPI: () => null,
};

export function partnerScore(instrumentCode: string, result: Result | undefined): number | null {
  const score = SCORE[instrumentCode];
  return result && score ? score(result) : null;
}

export type Metadata = Record<string, string | number | boolean | null>;

export interface StatusFacts {
  instrument: Pick<Instrument, 'code' | 'name' | 'scales'>;
  startedAt: string | null;
  completedAt: string | null;
  /** Whether the candidate keeps the results back (reports/render.withheld). */
  withheld: boolean;
  result: Result | undefined;
}

/** A sten's band where the norm group records no reliability: no band is made up. */
export const PRECISION_UNKNOWN = 'precision unknown: the norm group records no reliability';

/** Why an illustrative group's stens stay out, as the results endpoint's lists stay empty for it. */
export const ILLUSTRATIVE_RESULTS =
  'No stens: the norm group in force is an illustrative example built from simulated answers, and no simulated score goes where its warning cannot be seen. The report shows them with the warning.';

const hundredth = (x: number) => Math.round(x * 100) / 100;

/**
 * metadata: flat, primitives only. Once complete, released and normed by a real group, each
 * scale's sten with its evidence: the group's name and N, the sten's 90% band as the report
 * prints it, and the scale's alpha where the group records one. An illustrative group gives no
 * sten, and a result taken in a translation without norms of its own says so in `Note`.
 */
export function metadata(f: StatusFacts): Metadata {
  const m: Metadata = { Test: `${f.instrument.name.en} (${f.instrument.code})`, 'Started At': f.startedAt, 'Completed At': f.completedAt };
  if (!f.completedAt) return m;
  if (f.withheld) return { ...m, Results: 'Withheld: the candidate has not released their results' };
  if (!f.result?.normGroup) return { ...m, Results: 'Not normed: no norm group is active for this portal; see the report for raw scores' };
  const { normGroup: group, translationNote } = f.result;
  const note: Metadata = translationNote ? { Note: translationNote.en } : {};
  if (group.illustrative) return { ...m, 'Norm Group': `${group.name} (illustrative example, not for selection)`, Results: ILLUSTRATIVE_RESULTS, ...note };
  m['Norm Group'] = group.name;
  m['Norm Group N'] = group.sampleSize;
  const ids = new Map(f.instrument.scales.map((s) => [s.number, s.id]));
  for (const s of f.result.scales) {
    if (s.sten === undefined) continue;
    m[`${s.name} (sten)`] = s.sten;
    m[`${s.name} (sten 90% band)`] = s.stenBand ? bandText(s) : PRECISION_UNKNOWN;
    const alpha = group.table.scales[ids.get(s.id) ?? '']?.reliability?.alpha;
    if (alpha !== undefined) m[`${s.name} (alpha)`] = hundredth(alpha);
  }
  return { ...m, ...note };
}
