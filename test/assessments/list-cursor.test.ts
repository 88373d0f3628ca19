import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from '../helpers/deadline.js';
import { DomainError } from '../../src/domain/errors.js';
import { ListCursors } from '../../src/assessments/list-cursor.js';
import type { AssessmentFilter } from '../../src/assessments/list-store.js';

const key = randomBytes(32);
const cursors = new ListCursors(key);
const at = { key: '2026-12-01T10:00:00.000Z', id: 'an-42' };

function refused(fn: () => unknown, why: string) {
  assert.throws(
    fn,
    (e: unknown) =>
      e instanceof DomainError &&
      e.code === 'ValidationError' &&
      e.details.field === 'Cursor' &&
      e.details.rule === 'cursor' &&
      e.details.location === 'querystring' &&
      /^Cursor is not valid/.test(e.message),
    why,
  );
}

describe("the assessment list's Cursor", () => {
  test('comes back as the position it was made from, for the same tenant and filters, on another instance with the key', () => {
    for (const filter of [
      {},
      { status: 'Expired' },
      { completedSince: '2026-01-01T00:00:00Z' },
      { updatedSince: '2026-01-01T00:00:00Z', externalId: 'x' },
    ] as AssessmentFilter[]) {
      const cursor = cursors.encode('t1', filter, at);
      assert.deepEqual(new ListCursors(Buffer.from(key)).decode('t1', filter, cursor), at);
    }
  });

  test('is refused when another tenant, other filters, or another key bring it', () => {
    const filter: AssessmentFilter = { status: 'Completed', externalId: 'e', updatedSince: '2026-01-01T00:00:00Z', completedSince: '2026-02-01T00:00:00Z' };
    const cursor = cursors.encode('t1', filter, at);
    refused(() => cursors.decode('t2', filter, cursor), 'another tenant');
    for (const field of Object.keys(filter) as (keyof AssessmentFilter)[]) {
      refused(() => cursors.decode('t1', { ...filter, [field]: undefined }, cursor), `without ${field}`);
    }
    refused(() => cursors.decode('t1', { ...filter, status: 'Started' }, cursor), 'another status');
    // Another value of a filter that leaves the walk's order as it was.
    refused(() => cursors.decode('t1', { ...filter, externalId: 'f' }, cursor), 'another ExternalId');
    refused(() => cursors.decode('t1', { ...filter, updatedSince: '2026-01-02T00:00:00Z' }, cursor), 'another UpdatedSince');
    refused(() => cursors.decode('t1', { ...filter, completedSince: '2026-02-02T00:00:00Z' }, cursor), 'another CompletedSince');
    refused(() => new ListCursors(randomBytes(32)).decode('t1', filter, cursor), 'another key');
  });

  test('is refused when edited, cut or lengthened', () => {
    const cursor = cursors.encode('t1', {}, at);
    const [payload, sig] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['created_at', at.key, 'an-43'])).toString('base64url');
    refused(() => cursors.decode('t1', {}, `${forged}.${sig}`), 'another position under the old signature');
    refused(() => cursors.decode('t1', {}, `${payload}.${sig.slice(0, -2)}`), 'a short signature');
    refused(() => cursors.decode('t1', {}, `${payload}.${sig}AA`), 'a long signature');
    refused(() => cursors.decode('t1', {}, `${payload}.${sig}.x`), 'a third part');
    refused(() => cursors.decode('t1', {}, payload), 'no signature');
    refused(() => cursors.decode('t1', {}, `.${sig}`), 'no payload');
    refused(() => cursors.decode('t1', {}, `${payload}.`), 'an empty signature');
    refused(() => cursors.decode('t1', {}, ''), 'empty');
  });
});
