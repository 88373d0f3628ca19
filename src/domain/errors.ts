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
