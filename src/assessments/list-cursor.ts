import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../domain/errors.js';
import { listOrder, type AssessmentFilter, type Position } from './list-store.js';

const INVALID = 'Cursor is not valid: pass the Cursor of the previous page of this list unchanged, with the same filters';

/**
 * The list's Cursor: where a page ended, signed with the server key, the tenant and the filters.
 * So it works on every instance and after a restart, cannot be forged or edited, and is refused
 * (a 400, never another tenant's rows) when another tenant or other filters bring it.
 */
export class ListCursors {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  #sign(tenantId: string, filter: AssessmentFilter, payload: string): Buffer {
    const bound = JSON.stringify([tenantId, filter.status ?? null, filter.externalId ?? null, filter.updatedSince ?? null, filter.completedSince ?? null]);
    return createHmac('sha256', this.#key).update(bound).update('\n').update(payload).digest();
  }

  encode(tenantId: string, filter: AssessmentFilter, at: Position): string {
    const payload = Buffer.from(JSON.stringify([listOrder(filter), at.key, at.id])).toString('base64url');
    return `${payload}.${this.#sign(tenantId, filter, payload).toString('base64url')}`;
  }

  /** The position a cursor holds, when this tenant made it for these filters; else a ValidationError. */
  decode(tenantId: string, filter: AssessmentFilter, cursor: string): Position {
    const [payload, sig, extra] = cursor.split('.');
    if (!payload || !sig || extra !== undefined) throw invalid();
    const given = Buffer.from(sig, 'base64url');
    const expected = this.#sign(tenantId, filter, payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    const [order, key, id] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as unknown[];
    // Signed by this server, so well formed; the order is checked as a second guard.
    if (order !== listOrder(filter) || typeof key !== 'string' || typeof id !== 'string') throw invalid();
    return { key, id };
  }
}

const invalid = () => new DomainError('ValidationError', INVALID, { field: 'Cursor', rule: 'cursor', location: 'querystring' });
