import type { FieldNames } from '../assessments/rules.js';

/** The caller API's names for an assessment request's fields (the specification's): rule messages name these. */
export const API_FIELD_NAMES: FieldNames = {
  externalId: 'ExternalId',
  assessmentType: 'AssessmentType',
  returnUrl: 'ReturnUrl',
  webhookUrl: 'WebhookUrl',
  webhookUsername: 'WebhookUsername',
  webhookPassword: 'WebhookPassword',
  expiresAt: 'ExpiresAt',
  sendInvitation: 'SendInvitation',
};
