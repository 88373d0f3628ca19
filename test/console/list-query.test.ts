import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, test } from '../helpers/deadline.js';
import { buildListQuery, parseListQuery, toStoreInput, type ListQuery } from '../../src/console/list-query.js';

const INSTRUMENTS = [
  { assessmentType: 0, code: 'TMA170' },
  { assessmentType: 1, code: 'TMA312' },
  { assessmentType: 2, code: 'SPI' },
];
const parse = (qs: string, extra: string[] = []) => parseListQuery(new URLSearchParams(qs), INSTRUMENTS, extra);

// A day between 2000 and 2099, written YYYY-MM-DD.
const day = fc
  .integer({ min: Date.UTC(2000, 0, 1) / 86_400_000, max: Date.UTC(2099, 11, 31) / 86_400_000 })
  .map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));
const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);
const search = fc
  .string({ minLength: 1, maxLength: 100, unit: 'grapheme' })
  .map((s) => s.trim())
  .filter((s) => s.length > 0 && s.length <= 100);

const query: fc.Arbitrary<ListQuery> = fc
  .record(
    {
      search,
      status: fc.constantFrom('Created', 'Started', 'Completed', 'Expired', 'Cancelled' as const),
      instrument: fc.constantFrom('TMA170', 'TMA312', 'SPI'),
      from: day,
      to: day,
      flagged: fc.boolean(),
      sort: fc.constantFrom('invited', 'completed', 'name' as const),
      descending: fc.boolean(),
      cursor: fc.oneof(
        id.map((after) => ({ after })),
        id.map((before) => ({ before })),
      ),
    },
    { requiredKeys: ['sort', 'descending'], noNullPrototype: true },
  )
  .map((q) => (q.from && q.to && q.from > q.to ? { ...q, from: q.to, to: q.from } : q) as ListQuery);

describe("the console list's URL query", () => {
  test('parse(build(x)) is x, with no problems, for every view', () => {
    fc.assert(
      fc.property(query, (q) => {
        const back = parse(buildListQuery(q).slice(1));
        assert.deepEqual(back.problems, []);
        assert.deepEqual(back.query, q);
      }),
      { numRuns: 500 },
    );
  });

  test('the default view has an empty query, and an empty query is the default view', () => {
    assert.equal(buildListQuery({ sort: 'invited', descending: true }), '');
    assert.deepEqual(parse(''), { query: { sort: 'invited', descending: true }, problems: [] });
    // A GET form's empty fields ("any") are no filter.
    assert.deepEqual(parse('q=&status=&instrument=&from=&to=&flagged=&sort=invited&dir=desc'), { query: { sort: 'invited', descending: true }, problems: [] });
  });

  test('values are read in any case and written back in their own', () => {
    const { query: q, problems } = parse('status=completed&instrument=spi&flagged=YES&sort=Name&dir=DESC');
    assert.deepEqual(problems, []);
    assert.deepEqual(q, { status: 'Completed', instrument: 'SPI', flagged: true, sort: 'name', descending: true });
    assert.equal(buildListQuery(q), '?status=Completed&instrument=SPI&flagged=yes&sort=name&dir=desc');
  });

  test('bad and unknown values are left out and named, and never throw', () => {
    const { query: q, problems } = parse(
      'status=Done&instrument=XYZ&from=2026-02-30&to=yesterday&flagged=maybe&sort=score&dir=up&cursor=%%%&colour=red&status=Created',
    );
    assert.deepEqual(q, { sort: 'invited', descending: true });
    assert.deepEqual(
      problems.map((p) => `${p.field}:${p.code}`),
      [
        'colour:unknown',
        'status:repeated',
        'status:not-allowed',
        'instrument:not-allowed',
        'from:date',
        'to:date',
        'flagged:not-allowed',
        'sort:not-allowed',
        'dir:not-allowed',
        'cursor:cursor',
      ],
    );
    assert.deepEqual(problems.find((p) => p.field === 'instrument')!.allowed, ['TMA170', 'TMA312', 'SPI']);
    assert.deepEqual(parse('from=2026-03-02&to=2026-03-01').problems, [{ field: 'to', code: 'date-range' }]);
    assert.deepEqual(parse(`q=${'x'.repeat(101)}`).problems, [{ field: 'q', code: 'too-long' }]);
    // A parameter the page's other parts read passes when named.
    assert.deepEqual(parse('lang=nl', ['lang']).problems, []);
  });

  test('random query strings never throw', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('q', 'status', 'from', 'to', 'cursor', 'sort', 'dir', 'flagged', 'x'), fc.string())), (pairs) => {
        const r = parseListQuery(new URLSearchParams(pairs), INSTRUMENTS);
        assert.ok(Array.isArray(r.problems));
      }),
      { numRuns: 300 },
    );
  });

  test("the store's input: whole UTC days, the instrument's AssessmentType, the cursor's side", () => {
    const { query: q } = parse('q=jan&from=2026-03-01&to=2026-03-31&instrument=TMA312&flagged=no&sort=name');
    const { filter, page } = toStoreInput({ ...q, cursor: { before: 'abc' } }, INSTRUMENTS, 25);
    assert.deepEqual(filter, {
      search: 'jan',
      assessmentType: 1,
      invitedFrom: '2026-03-01T00:00:00.000Z',
      invitedBefore: '2026-04-01T00:00:00.000Z',
      flagged: false,
    });
    assert.deepEqual(page, { sort: 'name', descending: false, limit: 25, before: 'abc' });
  });
});
