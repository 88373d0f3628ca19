/** Machine-readable error codes. The spec's own codes come first; the rest are Assay's. */
export const ERROR_CODES = [
  'ExternalIdAlreadyExists',
  'NoCandidateFound',
  'InvalidAssessmentType',
  'ValidationError',
  'WebhookUrlNotAllowed',
  'InvalidJson',
  'UnsupportedMediaType',
  'PayloadTooLarge',
  'InvalidApiKey',
  'InvalidCredentials',
  'NotFound',
  'ResultsNotReleased',
  'AlreadyCompleted',
  'NotRedeliverable',
  'NotSendable',
  'IdempotencyKeyInUse',
  'IdempotencyKeyReused',
  'TooManyRequests',
  'ServiceUnavailable',
  'InternalError',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Names the setting a developer with a local receiver is looking for, and what it is for. */
export const webhookUrlNotAllowed = (field: string) =>
  `${field} must point at a public address. To receive webhooks on this machine or your own network while developing, start Assay with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (not for production)`;
export const WEBHOOK_URL_NOT_ALLOWED = webhookUrlNotAllowed('WebhookUrl');

/** A rule said no. Carries what the caller needs to fix the request, never internals. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
}
