import { ERROR_CODES, WEBHOOK_URL_NOT_ALLOWED, type ErrorCode } from '../domain/errors.js';
import { ErrorRef } from './envelopes.js';

/** The HTTP status of each error code. */
export const ERROR_STATUS = {
  ExternalIdAlreadyExists: 400,
  NoCandidateFound: 400,
  InvalidAssessmentType: 400,
  ValidationError: 400,
  WebhookUrlNotAllowed: 400,
  InvalidJson: 400,
  UnsupportedMediaType: 415,
  PayloadTooLarge: 413,
  InvalidApiKey: 401,
  InvalidCredentials: 401,
  NotFound: 404,
  ResultsNotReleased: 409,
  AlreadyCompleted: 409,
  NotRedeliverable: 409,
  NotSendable: 409,
  IdempotencyKeyInUse: 409,
  IdempotencyKeyReused: 422,
  TooManyRequests: 429,
  ServiceUnavailable: 503,
  InternalError: 500,
} as const satisfies Record<ErrorCode, number>;

/** When each code comes, for the docs, with a message as the server sends it. */
const EXAMPLES: Record<ErrorCode, { when: string; message: string; innererror?: Record<string, unknown> }> = {
  ExternalIdAlreadyExists: {
    when: 'a candidate with this ExternalId exists (in any tenant)',
    message: 'The provided ID already exists',
    innererror: { field: 'ExternalId' },
  },
  NoCandidateFound: { when: 'no candidate of yours has this ExternalId', message: 'No candidate found', innererror: { field: 'ExternalId' } },
  InvalidAssessmentType: {
    when: 'AssessmentType is missing or not 0, 1 or 2',
    message: 'AssessmentType must be 0 (TMA170), 1 (TMA312) or 2 (SPI)',
    innererror: { field: 'AssessmentType', rule: 'maximum' },
  },
  ValidationError: {
    when: 'a field breaks a rule (innererror names the field and the rule), or the URL cannot be read',
    message: 'Email must be a valid e-mail address',
    innererror: { field: 'Email', rule: 'format', format: 'email' },
  },
  WebhookUrlNotAllowed: {
    when: 'the WebhookUrl names a loopback, private or other non-public address',
    message: WEBHOOK_URL_NOT_ALLOWED,
    innererror: { field: 'WebhookUrl', rule: 'publicAddress' },
  },
  InvalidJson: { when: 'the body is not valid JSON, or is empty', message: 'The request body is not valid JSON' },
  UnsupportedMediaType: { when: 'a body is sent with another Content-Type than application/json', message: 'Content-Type must be application/json' },
  PayloadTooLarge: { when: 'the body is over 64 KiB', message: 'The request body is larger than 64 KiB' },
  InvalidApiKey: { when: 'the api-key header is missing or not a valid key (checked first)', message: 'The provided API key is not valid' },
  InvalidCredentials: { when: 'the Basic credentials are missing or wrong, or belong to another tenant than the key', message: 'Invalid username or password' },
  NotFound: { when: 'no such resource of yours', message: 'No assessment found with this AnalysisId', innererror: { field: 'AnalysisId' } },
  ResultsNotReleased: {
    when: 'the candidate has not released the results (a portal setting)',
    message: 'The candidate has not released the results of this assessment',
  },
  AlreadyCompleted: {
    when: 'the assessment is completed',
    message: "A completed assessment cannot be cancelled; erase the candidate's data to remove it",
    innererror: { field: 'AnalysisId' },
  },
  NotRedeliverable: {
    when: 'the assessment is not completed, has no WebhookUrl, or an attempt is pending or sending (innererror.reason says which)',
    message: 'An attempt for this assessment is waiting or on its way; see its delivery log',
    innererror: { field: 'AnalysisId', reason: 'in-progress' },
  },
  NotSendable: {
    when: 'the invitation cannot be sent again: the assessment is completed, cancelled or expired, or an invitation is waiting or on its way (innererror.reason says which)',
    message: 'An invitation for this assessment is waiting or on its way; see its mail log',
    innererror: { field: 'AnalysisId', reason: 'in-progress' },
  },
  IdempotencyKeyInUse: {
    when: 'a request with this Idempotency-Key is still in progress; see Retry-After',
    message: 'A request with this Idempotency-Key is still in progress; retry shortly',
    innererror: { field: 'Idempotency-Key', retryAfterSeconds: 1 },
  },
  IdempotencyKeyReused: {
    when: 'this Idempotency-Key was used in the last 24 hours with another request (method, path or body)',
    message: 'This Idempotency-Key was used with another request; use a new key for a new request',
    innererror: { field: 'Idempotency-Key' },
  },
  TooManyRequests: {
    when: "a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After",
    message: 'Too many failed authentication attempts; try again later',
    innererror: { retryAfterSeconds: 60 },
  },
  ServiceUnavailable: {
    when: 'the database is unreachable or the server is shedding load; see Retry-After',
    message: 'The server is busy (too many requests in flight); retry shortly',
    innererror: { retryAfterSeconds: 2 },
  },
  InternalError: { when: 'a bug; logged with the request id', message: 'Something went wrong on our side; it has been logged' },
};

/** Codes every authenticated API route can answer with. */
const AUTHENTICATED = ['ValidationError', 'InvalidApiKey', 'InvalidCredentials', 'TooManyRequests', 'ServiceUnavailable', 'InternalError'] as const;
/** And those that read a JSON body. */
const JSON_BODY = ['InvalidJson', 'UnsupportedMediaType', 'PayloadTooLarge'] as const;

/**
 * The error responses of an API route, grouped by status: each lists its codes and when they
 * come, with an example per code, all in the one ErrorEnvelope. `codes` are the route's own.
 */
export function apiErrors<C extends ErrorCode>(
  options: { body: true },
  ...codes: C[]
): ErrorResponses<C | (typeof AUTHENTICATED)[number] | (typeof JSON_BODY)[number]>;
export function apiErrors<C extends ErrorCode>(options: { body: false }, ...codes: C[]): ErrorResponses<C | (typeof AUTHENTICATED)[number]>;
export function apiErrors(options: { body: boolean }, ...codes: ErrorCode[]): ErrorResponses<ErrorCode> {
  const all = new Set<ErrorCode>([...AUTHENTICATED, ...(options.body ? JSON_BODY : []), ...codes]);
  return errorResponses([...all]);
}

/**
 * Typed as plain ErrorEnvelope references, which is what each one's content schema is: Fastify's
 * type provider then types the handler's replies as it did before the descriptions and examples.
 */
type ErrorResponses<C extends ErrorCode> = { [K in C as (typeof ERROR_STATUS)[K]]: typeof ErrorRef };

export function errorResponses<C extends ErrorCode>(codes: readonly C[]): ErrorResponses<C> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES) {
    if (!(codes as readonly ErrorCode[]).includes(code)) continue;
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, object> = {};
  for (const [status, list] of byStatus) {
    responses[status] = {
      description: list.map((c) => `\`${c}\`: ${EXAMPLES[c].when}`).join('; '),
      content: {
        'application/json': {
          schema: ErrorRef,
          examples: Object.fromEntries(
            list.map((c) => [c, { summary: c, value: { error: { code: c, message: EXAMPLES[c].message, innererror: EXAMPLES[c].innererror ?? {} } } }]),
          ),
        },
      },
    };
  }
  return responses as ErrorResponses<C>;
}
