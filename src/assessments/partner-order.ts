import { DomainError } from '../domain/errors.js';
import { NO_SMTP, type Capped } from '../mail/rules.js';
import { findOwnCandidate } from './candidates-store.js';
import { checkOrder, createChecked, type AssessmentOrder, type CreateDeps } from './create-assessment.js';
import { createCandidate, type NewPerson } from './create-candidate.js';
import { findOrderForUrl, followEmail } from './orders-store.js';
import type { Requester } from './requester.js';
import type { FieldNames } from './rules.js';

/** An ATS's order: the person (reused by their ExternalId) and the test, with the partner's completion URL and key. */
export interface PartnerOrder {
  person: NewPerson;
  assessmentType: number;
  url: string;
  partner: { via: string; key: string };
}

/** Past a cap on invitations nothing was created. */
export type Ordered = { outcome: 'ordered'; analysisId: string } | ({ outcome: 'capped' } & Capped);

/**
 * An ATS's order of a test: the candidate (created, or reused by their stable ExternalId, whose
 * address then follows the order's), the assessment with the completion URL, and the invitation
 * in the same commit. A repeat for the same person, test and URL is the ATS retrying: it gets the
 * first order's id, and nothing new is created or sent, also when the repeats arrive at once
 * (orders-store.orderKey). Nothing is written when a rule refuses the order.
 */
export async function placePartnerOrder(deps: CreateDeps, requester: Requester, given: PartnerOrder, names: FieldNames): Promise<Ordered> {
  const order: AssessmentOrder = {
    externalId: given.person.externalId,
    assessmentType: given.assessmentType,
    webhookUrl: given.url,
    invitation: 'send',
    partner: given.partner,
  };
  const checked = checkOrder(deps, order, names);
  const key = { tenantId: requester.tenantId, externalId: order.externalId, assessmentType: order.assessmentType, url: checked.webhook!.url };
  const invalid = (message: string) => new DomainError('ValidationError', message, { field: names.externalId });
  if ((await createCandidate(deps, requester, given.person)) === 'exists') {
    // Existing: this tenant's, from an earlier order (another tenant's could only be a hash collision).
    if (!(await findOwnCandidate(deps.store, requester.tenantId, order.externalId))) throw invalid('This candidate cannot be created in Assay');
    const earlier = await findOrderForUrl(deps.store, key);
    if (earlier) return { outcome: 'ordered', analysisId: earlier };
    await followEmail(deps.store, requester.tenantId, order.externalId, given.person.email);
  }
  const created = await createChecked(deps, requester, checked);
  if (created.outcome === 'created') return { outcome: 'ordered', analysisId: created.analysisId };
  if (created.outcome === 'capped') return created;
  if (created.outcome === 'no-mail') throw new DomainError('ValidationError', NO_SMTP, { field: names.sendInvitation });
  // A concurrent order of the same test got there first: its id, as for a repeat.
  const earlier = await findOrderForUrl(deps.store, key);
  if (earlier) return { outcome: 'ordered', analysisId: earlier };
  throw invalid('The candidate was erased meanwhile; send the test again');
}
