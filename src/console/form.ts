import { parse } from 'node:querystring';
import type { FastifyRequest } from 'fastify';

/** The console's forms have a handful of fields; more is refused before parsing (413). */
const MAX_FIELDS = 16;

export function formParser(body: string): Record<string, unknown> {
  let fields = 1;
  for (let i = body.indexOf('&'); i !== -1; i = body.indexOf('&', i + 1)) {
    if (++fields > MAX_FIELDS)
      throw Object.assign(new Error(`A console form has at most ${MAX_FIELDS} fields`), { statusCode: 413, code: 'ASSAY_TOO_MANY_FIELDS' });
  }
  return parse(body, '&', '=', { maxKeys: MAX_FIELDS });
}

/** The posted form's single-valued fields, without the CSRF token, taken off the request. */
export function takeForm(request: FastifyRequest): Record<string, string> {
  const body = request.body as Record<string, unknown> | undefined;
  request.body = undefined;
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(body ?? {})) if (typeof value === 'string' && key !== '_csrf') form[key] = value;
  return form;
}
