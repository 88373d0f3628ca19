import type { Deps } from '../../app-types.js';
import { findOwnAssessment } from '../../assessments/assessments-store.js';
import type { CreateDeps } from '../../assessments/create-assessment.js';
import { placePartnerOrder } from '../../assessments/partner-order.js';
import { fieldNames } from '../../assessments/rules.js';
import { cappedError } from '../../mail/rules.js';
import { DomainError } from '../../domain/errors.js';
import { effectiveStatus } from '../../lifecycle/rules.js';
import { resultOf, withheld } from '../../reports/render.js';
import { assessmentTypeOf, externalIdFor, metadata, ORDERED_VIA, partnerScore, partnerStatus, PROFILE_LINK_DAYS, type Metadata } from './mapping.js';
import type { SendTestBody } from './schemas.js';
import type { GreenhouseCaller } from './types.js';

export type OrderDeps = CreateDeps & Pick<Deps, 'instruments'>;

export const NO_MAIL =
  'Assay cannot e-mail this test: the Assay server has no SMTP_URL set. Ask your Assay operator to configure e-mail, then send the test again.';

/** send_test's names for the fields of an order it has. */
const FIELD_NAMES = fieldNames({
  externalId: 'candidate.greenhouse_profile_url',
  assessmentType: 'partner_test_id',
  webhookUrl: 'url',
  sendInvitation: 'candidate.email',
});

const invalid = (field: string, message: string) => new DomainError('ValidationError', message, { field });

/**
 * send_test: an ATS order (assessments/partner-order.ts) with Greenhouse's `url` as its completion
 * call and Greenhouse's key to authenticate it. Nothing is created when e-mail is not configured.
 */
export async function orderTest(deps: OrderDeps, caller: GreenhouseCaller, body: SendTestBody): Promise<string> {
  if (!deps.config.mail) throw invalid(FIELD_NAMES.sendInvitation, NO_MAIL);
  const type = assessmentTypeOf(body.partner_test_id, deps.instruments);
  if (type === undefined) throw invalid(FIELD_NAMES.assessmentType, `partner_test_id "${body.partner_test_id}" is not a test Assay offers; see list_tests`);
  const { candidate } = body;
  const externalId = externalIdFor(caller.tenantId, candidate.greenhouse_profile_url);
  if (!externalId) throw invalid(FIELD_NAMES.externalId, 'candidate.greenhouse_profile_url must be an absolute http or https URL');
  const person = { externalId, email: candidate.email, firstName: candidate.first_name, lastName: candidate.last_name };
  const ordered = await placePartnerOrder(
    deps,
    caller,
    { person, assessmentType: type, url: body.url, partner: { via: ORDERED_VIA, key: caller.key } },
    FIELD_NAMES,
  );
  if (ordered.outcome === 'capped') throw cappedError(ordered);
  return ordered.analysisId;
}
export interface TestStatus {
  partner_status: string;
  partner_profile_url: string | null;
  partner_score: number | null;
  metadata: Metadata;
}

/**
 * test_status of a test this door ordered for the caller's tenant; undefined for any other id.
 * The profile link is signed for PROFILE_LINK_DAYS; while the candidate withholds the results it
 * opens the withheld page, and metadata carries no scores.
 */
export async function testStatus(
  deps: Pick<Deps, 'store' | 'instruments' | 'competences' | 'reportLinks'>,
  caller: GreenhouseCaller,
  id: string,
): Promise<TestStatus | undefined> {
  const row = await findOwnAssessment(deps.store, caller.tenantId, id);
  if (!row || row.ordered_via !== ORDERED_VIA) return undefined;
  const instrument = deps.instruments.get(row.assessment_type)!;
  const complete = row.status === 'Completed' && row.report_nonce !== null;
  const kept = withheld(row);
  const result = complete && !kept ? await resultOf(deps, row, 'en') : undefined;
  return {
    partner_status: partnerStatus(effectiveStatus(row)),
    partner_profile_url: complete ? row.portal_domain + deps.reportLinks.path(row.analysis_id, row.report_nonce!, Date.now(), PROFILE_LINK_DAYS) : null,
    partner_score: kept ? null : partnerScore(instrument.code, result),
    metadata: metadata({ instrument, startedAt: row.started_at, completedAt: complete ? row.completed_at : null, withheld: kept, result }),
  };
}
