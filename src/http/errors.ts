import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../domain/errors.js';
import { isUnavailableError } from '../db/errors.js';

import { ERROR_STATUS } from '../schemas/errors.js';
import { NAME_PATTERN } from '../schemas/fields.js';
import { IDEMPOTENCY_KEY_RULE } from '../schemas/idempotency.js';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; innererror: Record<string, unknown> };
}

export function errorBody(code: ErrorCode, message: string, innererror: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, innererror } };
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const GENDER_MESSAGE = 'Gender must be 0 (unknown), 1 (male), 2 (female) or 3 (neutral)';

/** One validation failure in words: the field first, then what is wrong with it. */
export function describeValidation(e: AjvError, context: string): DomainError {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = e.keyword === 'required' ? [path, String(e.params.missingProperty)].filter(Boolean).join('.') : path;
  const inner = { field: field || context, rule: e.keyword, location: context, ...e.params };
  const limit = e.params.limit;
  if (field === 'AssessmentType') {
    const msg =
      e.keyword === 'required' ? 'AssessmentType is required: 0 (TMA170), 1 (TMA312) or 2 (SPI)' : 'AssessmentType must be 0 (TMA170), 1 (TMA312) or 2 (SPI)';
    return new DomainError('InvalidAssessmentType', msg, inner);
  }
  if (context === 'headers' && field === 'idempotency-key') {
    return new DomainError('ValidationError', IDEMPOTENCY_KEY_RULE, { ...inner, field: 'Idempotency-Key' });
  }
  let message: string;
  switch (e.keyword) {
    case 'required':
      message = `${field} is required`;
      break;
    case 'type':
      message = field
        ? `${field} must be ${e.params.type === 'integer' ? 'an integer' : `of type ${String(e.params.type)}`}`
        : `The request ${context} must be a JSON object`;
      break;
    case 'minLength':
      message = `${field} must be at least ${String(limit)} characters`;
      break;
    case 'maxLength':
      message = `${field} must be at most ${String(limit)} characters`;
      break;
    case 'format':
      message =
        e.params.format === 'email'
          ? `${field} must be a valid e-mail address`
          : e.params.format === 'date-time'
            ? `${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T00:00:00Z`
            : `${field} must be a valid ${String(e.params.format)}`;
      break;
    case 'enum':
      message = `${field} must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
      break;
    case 'pattern':
      message =
        e.params.pattern === NAME_PATTERN
          ? `${field} contains characters that are not allowed (control characters, bidirectional controls or unpaired surrogates)`
          : `${field} contains characters that are not allowed (control characters or unpaired surrogates)`;
      break;
    case 'minimum':
    case 'maximum':
      message = field === 'Gender' ? GENDER_MESSAGE : `${field} must be ${e.keyword === 'minimum' ? 'at least' : 'at most'} ${String(limit)}`;
      break;
    default:
      message = `${field || context} is not valid (${e.keyword})`;
  }
  return new DomainError('ValidationError', message, inner);
}

/** Maps anything thrown while handling a request to a status and the spec's error envelope. */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } {
  if (err instanceof DomainError) return { status: ERROR_STATUS[err.code], body: errorBody(err.code, err.message, err.details) };
  const fe = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (Array.isArray(fe.validation) && fe.validation.length > 0) {
    const d = describeValidation(fe.validation[0]!, fe.validationContext ?? 'body');
    return { status: ERROR_STATUS[d.code], body: errorBody(d.code, d.message, d.details) };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: errorBody('UnsupportedMediaType', 'Content-Type must be application/json') };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: errorBody('PayloadTooLarge', 'The request body is larger than 64 KiB') };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: errorBody('InvalidJson', 'The request body is empty; send a JSON object') };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: errorBody('InvalidJson', 'The request body is not valid JSON') };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, body: errorBody('InvalidJson', 'The request body does not match its Content-Length') };
  }
  if (isUnavailableError(err)) {
    return { status: 503, body: errorBody('ServiceUnavailable', 'The service is temporarily unavailable; try again shortly') };
  }
  if (fe.statusCode === 429) return { status: 429, body: errorBody('TooManyRequests', 'Too many requests; slow down') };
  // Client errors Fastify raises itself (aborted bodies, bad headers) keep their status.
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, body: errorBody('ValidationError', 'The request could not be read') };
  }
  return { status: 500, body: errorBody('InternalError', 'Something went wrong on our side; it has been logged') };
}

export function sendError(reply: FastifyReply, err: unknown, request: FastifyRequest): FastifyReply {
  const { status, body } = toErrorResponse(err);
  const retryAfter = body.error.innererror.retryAfterSeconds;
  if ((status === 409 || status === 429 || status === 503) && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  if (status === 503) request.log.warn({ err }, 'service unavailable');
  else if (status >= 500) request.log.error({ err }, 'request failed');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
