import type { FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import { DomainError } from '../domain/errors.js';

/**
 * Clients of the original service send ExternalId, externalId and externalid alike. Before
 * validation, known properties are renamed to the schema's casing and unknown ones dropped.
 */
export function caseInsensitiveBody(schema: TObject) {
  const canonical = new Map(Object.keys(schema.properties).map((name) => [name.toLowerCase(), name]));
  return async function normalizeBody(request: FastifyRequest): Promise<void> {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) {
      const name = canonical.get(key.toLowerCase());
      if (name === undefined) continue;
      if (Object.hasOwn(out, name)) {
        throw new DomainError('ValidationError', `${name} is given more than once (property names are case-insensitive)`, {
          field: name,
          rule: 'duplicateProperty',
        });
      }
      out[name] = value;
    }
    request.body = out;
  };
}
