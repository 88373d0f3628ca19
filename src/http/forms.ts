import { parse } from 'node:querystring';
import type { FastifyRequest } from 'fastify';

/**
 * An urlencoded parser for a door's server-rendered forms. More fields than `maxFields` is refused
 * before parsing (413), so a post cannot make the server build a large object.
 */
export function cappedFormParser(maxFields: number, door: string): (body: string) => Record<string, unknown> {
  return (body) => {
    let fields = 1;
    for (let i = body.indexOf('&'); i !== -1; i = body.indexOf('&', i + 1)) {
      if (++fields > maxFields) {
        throw Object.assign(new Error(`A ${door} form has at most ${maxFields} fields`), { statusCode: 413, code: 'ASSAY_TOO_MANY_FIELDS' });
      }
    }
    return parse(body, '&', '=', { maxKeys: maxFields });
  };
}

/**
 * The posted form's single-valued fields without the CSRF token, taken off the request: nothing
 * holds the parsed body while the handler awaits the database. The CSRF check (a preHandler) has used it by then.
 */
export function takeForm(request: FastifyRequest): Record<string, string> {
  const body = request.body as Record<string, unknown> | undefined;
  request.body = undefined;
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(body ?? {})) if (typeof value === 'string' && key !== '_csrf') form[key] = value;
  return form;
}
