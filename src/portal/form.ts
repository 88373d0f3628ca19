import { parse } from 'node:querystring';
import type { FastifyRequest } from 'fastify';

/** Fields a portal form may carry beyond its answers: the CSRF token, the button, the details and spare. */
const EXTRA_FIELDS = 8;

/**
 * The urlencoded parser for the portal's forms. More fields than the largest real page has is
 * refused before parsing (413), so a post cannot make the server build a large object.
 */
export function formParser(maxItemsPerPage: number): (body: string) => Record<string, unknown> {
  const maxFields = maxItemsPerPage + EXTRA_FIELDS;
  return (body) => {
    let fields = 1;
    for (let i = body.indexOf('&'); i !== -1; i = body.indexOf('&', i + 1)) {
      if (++fields > maxFields) {
        throw Object.assign(new Error(`A portal form has at most ${maxFields} fields`), { statusCode: 413, code: 'ASSAY_TOO_MANY_FIELDS' });
      }
    }
    return parse(body, '&', '=', { maxKeys: maxFields });
  };
}

/**
 * The posted form's single-valued fields, taken off the request: nothing holds the parsed body
 * while the handler awaits the database. The CSRF check (a preHandler) has used it by then.
 */
export function takeForm(request: FastifyRequest): Record<string, string> {
  const body = request.body as Record<string, unknown> | undefined;
  request.body = undefined;
  const form: Record<string, string> = {};
  if (body) {
    for (const key of Object.keys(body)) {
      const value = body[key];
      if (typeof value === 'string' && key !== '_csrf') form[key] = value;
    }
  }
  return form;
}
