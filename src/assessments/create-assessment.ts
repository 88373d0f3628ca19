import type { Deps } from '../app-types.js';
import { expiryFor } from '../lifecycle/rules.js';
import { insertWithInvitation } from '../mail/queue-store.js';
import type { Capped } from '../mail/rules.js';
import { newAnalysisId } from '../security/tokens.js';
import { insertAssessment, type NewAssessment } from './assessments-store.js';
import { orderKey } from './orders-store.js';
import type { Requester } from './requester.js';
import { assessmentUrl, checkAssessmentRequest, type AssessmentRequest, type FieldNames } from './rules.js';

export type CreateDeps = Pick<Deps, 'store' | 'secretBox' | 'config' | 'mail'>;

/**
 * `send`: queue the invitation; `portal-default`: queue it when the portal sends one by default;
 * `none`: no invitation. Without mail configured only `none` and `portal-default` create.
 */
export type Invitation = 'send' | 'portal-default' | 'none';

export interface AssessmentOrder extends AssessmentRequest {
  externalId: string;
  /** As given: expiryFor sets the default and the bounds. */
  expiresAt?: string | undefined;
  invitation: Invitation;
  /**
   * An ATS's order: its door's mark (`ordered_via`), and the partner's key, sealed with the row to
   * authenticate the completion call (a PATCH to the webhook URL, retried). The webhook URL keys
   * the order, so a repeat of it creates nothing.
   */
  partner?: { via: string; key: string };
}

/** An order whose rules passed: what `createChecked` writes. */
export interface CheckedOrder {
  order: AssessmentOrder;
  returnUrl: string | null;
  webhook: ReturnType<typeof checkAssessmentRequest>['webhook'];
  names: FieldNames;
}

export type Created =
  | { outcome: 'created'; analysisId: string; assessmentUrl: string }
  | { outcome: 'no-candidate' }
  /** `send` asked on a server without mail: nothing was created. */
  | { outcome: 'no-mail' }
  /** Past a cap on invitations: nothing was created. */
  | ({ outcome: 'capped' } & Capped);

/** The order's rules, in the words of the door that asked (`names`); throws a DomainError, writes nothing. */
export function checkOrder(deps: Pick<Deps, 'config'>, order: AssessmentOrder, names: FieldNames): CheckedOrder {
  const checked = checkAssessmentRequest(order, deps.config.webhook.allowPrivateNetworks, names);
  return { order, returnUrl: checked.returnUrl, webhook: checked.webhook, names };
}

/** The row an order creates: the rest of it fills in as the candidate goes. */
export function assessmentRow(deps: Pick<Deps, 'secretBox' | 'config'>, requester: Requester, checked: CheckedOrder, analysisId: string): NewAssessment {
  const { order, webhook, names } = checked;
  const row: NewAssessment = {
    analysis_id: analysisId,
    tenant_id: requester.tenantId,
    external_id: order.externalId,
    api_key_id: requester.apiKeyId,
    portal_domain: requester.portalDomain,
    assessment_type: order.assessmentType,
    return_url: checked.returnUrl,
    webhook_url: webhook?.url ?? null,
    webhook_username: webhook?.username ?? null,
    webhook_password_enc: webhook?.password === undefined ? null : deps.secretBox.seal(webhook.password, analysisId),
    status: 'Created',
    scores: null,
    created_at: new Date().toISOString(),
    started_at: null,
    completed_at: null,
    expires_at: expiryFor(order.expiresAt, deps.config.lifecycle.expiryDays, Date.now(), names.expiresAt),
  };
  if (order.partner && webhook) {
    row.ordered_via = order.partner.via;
    row.webhook_style = 'patch';
    row.webhook_username_enc = deps.secretBox.seal(order.partner.key, analysisId);
    row.order_key = orderKey(webhook.url);
  }
  return row;
}

/**
 * Creates the assessment of a checked order for the requester's own candidate, with its invitation
 * queued in the same commit, and wakes the mailer when one was. Without mail, or told not to,
 * only the assessment is written.
 */
export async function createChecked(deps: CreateDeps, requester: Requester, checked: CheckedOrder): Promise<Created> {
  const { config, store } = deps;
  const { invitation } = checked.order;
  if (invitation === 'send' && !config.mail) return { outcome: 'no-mail' };
  const analysisId = newAnalysisId();
  const row = assessmentRow(deps, requester, checked, analysisId);
  const outcome =
    config.mail && invitation !== 'none'
      ? await insertWithInvitation(store, row, { portalDefault: invitation === 'portal-default', caps: config.mail })
      : await insertAssessment(store, row);
  if (typeof outcome === 'object') return { outcome: 'capped', ...outcome };
  if (outcome === 'no-candidate') return { outcome };
  if (config.mail) deps.mail.wake();
  return { outcome: 'created', analysisId, assessmentUrl: assessmentUrl(requester.portalDomain, analysisId) };
}

/** Creates an assessment with its invitation: the order's rules, then `createChecked`. */
export async function createAssessment(deps: CreateDeps, requester: Requester, order: AssessmentOrder, names: FieldNames): Promise<Created> {
  return createChecked(deps, requester, checkOrder(deps, order, names));
}
