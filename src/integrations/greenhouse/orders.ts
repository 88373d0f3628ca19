import type { Deps } from '../../app-types.js';
import { findOwnCandidate, insertCandidate } from '../../assessments/candidates-store.js';
import { findOwnAssessment } from '../../assessments/assessments-store.js';
import { insertWithInvitation } from '../../mail/queue-store.js';
import { cappedError } from '../../mail/rules.js';
import { checkAssessmentRequest } from '../../assessments/rules.js';
import { DomainError } from '../../domain/errors.js';
import { effectiveStatus, expiryFor } from '../../lifecycle/rules.js';
import { resultOf, withheld } from '../../reports/render.js';
import { newAnalysisId } from '../../security/tokens.js';
import { assessmentTypeOf, externalIdFor, metadata, partnerScore, partnerStatus, PROFILE_LINK_DAYS, type Metadata } from './mapping.js';
import { findOrderForUrl, followEmail, orderKey, ORDERED_VIA } from './orders-store.js';
import type { SendTestBody } from './schemas.js';
import type { GreenhouseCaller } from './types.js';

export type OrderDeps = Pick<Deps, 'store' | 'secretBox' | 'config' | 'instruments' | 'mail'>;

export const NO_MAIL =
  'Assay cannot e-mail this test: the Assay server has no SMTP_URL set. Ask your Assay operator to configure e-mail, then send the test again.';

const invalid = (field: string, message: string) => new DomainError('ValidationError', message, { field });

/**
 * send_test: the candidate (reused by their stable ExternalId), the assessment with Greenhouse's
 * `url` as its completion call (a PATCH, retried; the key sealed to authenticate it), and the
 * invitation e-mail queued in the same commit. Nothing is created when e-mail is not configured.
 * A repeat for the same person, test and `url` is Greenhouse retrying: it gets the first order's id,
 * and nothing new is created or sent, also when the repeats arrive at once (orders-store.orderKey).
 */
export async function orderTest(deps: OrderDeps, caller: GreenhouseCaller, body: SendTestBody): Promise<string> {
  if (!deps.config.mail) throw invalid('candidate.email', NO_MAIL);
  const type = assessmentTypeOf(body.partner_test_id, deps.instruments);
  if (type === undefined) throw invalid('partner_test_id', `partner_test_id "${body.partner_test_id}" is not a test Assay offers; see list_tests`);
  const { candidate } = body;
  const externalId = externalIdFor(caller.tenantId, candidate.greenhouse_profile_url);
  if (!externalId) throw invalid('candidate.greenhouse_profile_url', 'candidate.greenhouse_profile_url must be an absolute http or https URL');
  let checked;
  try {
    checked = checkAssessmentRequest(
      { assessmentType: type, returnUrl: undefined, webhookUrl: body.url, webhookUsername: undefined, webhookPassword: undefined },
      deps.config.webhook.allowPrivateNetworks,
    );
  } catch (err) {
    // The caller API's rule, in this API's words.
    if (err instanceof DomainError) throw invalid('url', err.message.replaceAll('WebhookUrl', 'url'));
    throw err;
  }

  const at = new Date().toISOString();
  const fresh = await insertCandidate(deps.store, {
    external_id: externalId,
    tenant_id: caller.tenantId,
    email: candidate.email,
    first_name: candidate.first_name,
    last_name: candidate.last_name,
    preposition: '',
    gender: 0,
    needs_to_update_data: 0,
    created_at: at,
    updated_at: at,
  });
  // Existing: this tenant's, from an earlier order (another tenant's could only be a hash collision).
  const person = fresh ? undefined : await findOwnCandidate(deps.store, caller.tenantId, externalId);
  if (!fresh && !person) throw invalid('candidate.greenhouse_profile_url', 'This candidate cannot be created in Assay');
  const order = { tenantId: caller.tenantId, externalId, assessmentType: type, url: checked.webhook!.url };
  if (person) {
    const earlier = await findOrderForUrl(deps.store, order);
    if (earlier) return earlier;
    await followEmail(deps.store, caller.tenantId, externalId, candidate.email);
  }

  const analysisId = newAnalysisId();
  const row = {
    analysis_id: analysisId,
    tenant_id: caller.tenantId,
    external_id: externalId,
    api_key_id: caller.apiKeyId,
    portal_domain: caller.portalDomain,
    assessment_type: type,
    return_url: null,
    webhook_url: checked.webhook!.url,
    webhook_username: null,
    webhook_password_enc: null,
    webhook_username_enc: deps.secretBox.seal(caller.key, analysisId),
    webhook_style: 'patch',
    ordered_via: ORDERED_VIA,
    order_key: orderKey(order.url),
    status: 'Created',
    scores: null,
    created_at: at,
    started_at: null,
    completed_at: null,
    expires_at: expiryFor(undefined, deps.config.lifecycle.expiryDays),
  } as const;
  const outcome = await insertWithInvitation(deps.store, row, { portalDefault: false, caps: deps.config.mail });
  if (typeof outcome === 'object') throw cappedError(outcome);
  if (outcome === 'no-candidate') {
    // A concurrent send_test for the same order got there first: its id, as for a repeat.
    const earlier = await findOrderForUrl(deps.store, order);
    if (earlier) return earlier;
    throw invalid('candidate.greenhouse_profile_url', 'The candidate was erased meanwhile; send the test again');
  }
  deps.mail.wake();
  return analysisId;
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
