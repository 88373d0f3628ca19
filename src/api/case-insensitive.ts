import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import { DomainError } from '../domain/errors.js';

/**
 * Clients of the original service send ExternalId, externalId and externalid alike. Before
 * validation, known properties are renamed to the schema's casing and unknown ones dropped.
 */
export function caseInsensitiveBody(schema: TObject) {
  const canonical = new Map(Object.keys(schema.properties).map((name) => [name.toLowerCase(), name]));
  const names = new Set(canonical.values());
  return function normalizeBody(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return done();
    // Most callers already use the schema's casing: then the parsed body is kept as it is.
    if (allCanonical(body, names)) return done();
    const out: Record<string, unknown> = {};
    for (const key in body) {
      if (!Object.hasOwn(body, key)) continue;
      const name = canonical.get(key.toLowerCase());
      if (name === undefined) continue;
      if (Object.hasOwn(out, name)) {
        return done(
          new DomainError('ValidationError', `${name} is given more than once (property names are case-insensitive)`, {
            field: name,
            rule: 'duplicateProperty',
          }),
        );
      }
      out[name] = (body as Record<string, unknown>)[key];
    }
    request.body = out;
    done();
  };
}

/** True when every own property is spelled as the schema spells it (so none can repeat another). */
function allCanonical(body: object, names: ReadonlySet<string>): boolean {
  for (const key in body) {
    if (!Object.hasOwn(body, key) || !names.has(key)) return false;
  }
  return true;
}

/**
 * The same for a query string, which has no types: a known parameter in any casing is renamed, an
 * integer one's digits become a number, and an unknown one is refused, so a misspelled filter is
 * an error rather than a list nobody asked for.
 */
export function caseInsensitiveQuery(schema: TObject) {
  const canonical = new Map(Object.keys(schema.properties).map((name) => [name.toLowerCase(), name]));
  const integers = new Set(Object.entries(schema.properties).flatMap(([name, s]) => ((s as { type?: unknown }).type === 'integer' ? [name] : [])));
  const known = [...canonical.values()].join(', ');
  return function normalizeQuery(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
    const query = request.query as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(query)) {
      const name = canonical.get(key.toLowerCase());
      if (name === undefined) {
        const shown = JSON.stringify(key.slice(0, 40));
        return done(
          new DomainError('ValidationError', `${shown} is not a query parameter here; known: ${known}`, { field: key.slice(0, 40), rule: 'unknownParameter' }),
        );
      }
      if (Object.hasOwn(out, name) || Array.isArray(query[key])) {
        return done(new DomainError('ValidationError', `${name} is given more than once`, { field: name, rule: 'duplicateParameter' }));
      }
      const value = query[key];
      out[name] = integers.has(name) && typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
    }
    request.query = out;
    done();
  };
}
