import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { plain } from '../helpers/html.js';
import type { ConsoleRow } from '../../src/assessments/console-list-store.js';
import type { AssessmentRow } from '../../src/assessments/assessments-store.js';
import { candidateListBody, type ListPageInput } from '../../src/console/list-view.js';

const INSTRUMENTS = [
  { assessmentType: 0, code: 'TMA170' },
  { assessmentType: 2, code: 'SPI' },
];

function row(over: Partial<AssessmentRow>, person: Partial<ConsoleRow> = {}): ConsoleRow {
  const assessment = {
    analysis_id: 'A1',
    external_id: 'ext-1',
    assessment_type: 0,
    status: 'Created',
    created_at: '2026-03-01T09:30:00.000Z',
    completed_at: null,
    results_release: null,
    expires_at: null,
    ...over,
  } as AssessmentRow;
  return { assessment, firstName: 'Anna', preposition: 'van', lastName: 'Dijk', email: 'a@example.test', status: 'Created', flags: [], ...person };
}

const counts = { Created: 3, Started: 1, Completed: 2, Expired: 0, Cancelled: 4 };

function input(over: Partial<ListPageInput> = {}): ListPageInput {
  return {
    rows: [
      row({}),
      row(
        {
          analysis_id: 'A2',
          external_id: 'x/<2>',
          assessment_type: 2,
          status: 'Completed',
          completed_at: '2026-03-02T10:00:00.000Z',
          results_release: 'pending',
        },
        { firstName: '<script>alert(1)</script>', preposition: '', lastName: 'Bos', status: 'Completed', flags: ['Speeding'] },
      ),
    ],
    next: 'A2',
    previous: 'A1',
    counts,
    query: { search: 'bos & co', status: 'Completed', sort: 'name', descending: false, cursor: { after: 'A0' } },
    problems: [],
    instruments: INSTRUMENTS,
    lang: 'en',
    ...over,
  };
}

describe("the console's candidate list page body", () => {
  test('a table with a caption, column headers and a row header per candidate; names escaped', () => {
    const out = candidateListBody(input()).value;
    assert.match(out, /<caption>Assessments \(2 on this page\)<\/caption>/);
    const headers = [...out.matchAll(/<th scope="col"[^>]*>([^<]+)<\/th>/g)].map((m) => m[1]);
    assert.deepEqual(headers, ['Candidate', 'ExternalId', 'Instrument', 'Status', 'Invited', 'Completed', 'Results', 'Integrity flags']);
    assert.match(out, /<th scope="col" aria-sort="ascending">Candidate<\/th>/);
    assert.equal((out.match(/<th scope="row">/g) ?? []).length, 2);
    assert.ok(!out.includes('<script>'), 'no markup from data');
    assert.ok(out.includes('&lt;script&gt;alert(1)&lt;/script&gt; Bos'));
    assert.ok(out.includes('href="/console/candidates/x%2F%3C2%3E"'), "the candidate's link carries the ExternalId encoded");
    const text = plain(out);
    assert.ok(text.includes('Anna van Dijk'));
    assert.ok(text.includes('SPI') && text.includes('Awaiting consent') && text.includes('Speeding'));
    assert.ok(text.includes('1 Mar 2026, 09:30 UTC'));
  });

  test('counts per status and a total, each a link keeping the search and dropping the cursor', () => {
    const out = candidateListBody(input()).value;
    assert.ok(out.includes('<a href="/console/candidates?q=bos+%26+co&amp;sort=name">All <span class="count">10</span></a>'));
    assert.ok(out.includes('href="/console/candidates?q=bos+%26+co&amp;status=Cancelled&amp;sort=name">Cancelled <span class="count">4</span>'));
    assert.ok(out.includes('aria-current="page">Completed <span class="count">2</span>'));
  });

  test('Previous and Next keep every filter; the form is a GET with labelled fields holding the view', () => {
    const out = candidateListBody(input()).value;
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    assert.ok(out.includes(`href="/console/candidates?q=bos+%26+co&amp;status=Completed&amp;sort=name&amp;cursor=${b64('b:A1')}" rel="prev">Previous</a>`));
    assert.ok(out.includes(`href="/console/candidates?q=bos+%26+co&amp;status=Completed&amp;sort=name&amp;cursor=${b64('a:A2')}" rel="next">Next</a>`));
    assert.match(out, /<form method="get" action="\/console\/candidates"/);
    for (const id of ['list-q', 'list-status', 'list-instrument', 'list-from', 'list-to', 'list-flagged', 'list-sort', 'list-dir']) {
      assert.ok(out.includes(`<label for="${id}">`) && out.includes(`id="${id}"`), id);
    }
    assert.ok(out.includes('value="bos &amp; co"'));
    assert.ok(out.includes('<option value="Completed" selected>'));
    assert.ok(out.includes('href="/console/candidates/export.csv?q=bos+%26+co&amp;status=Completed&amp;sort=name"'));
    assert.ok(!candidateListBody(input({ canExport: false })).value.includes('export.csv'));
  });

  test('in Dutch, with the problems of the address said and no rows', () => {
    const out = candidateListBody(input({ lang: 'nl', rows: [], next: null, previous: null, problems: [{ field: 'from', code: 'date' }] })).value;
    const text = plain(out);
    assert.ok(text.includes('Kandidaten'));
    assert.ok(text.includes('Geen assessments voor deze zoekopdracht en filters.'));
    assert.ok(text.includes('„from” moet een datum zijn in de vorm JJJJ-MM-DD.'));
    assert.match(out, /role="alert"/);
    // A cursor with nothing before it: a link to the first page.
    assert.ok(out.includes('rel="first">Eerste pagina</a>'));
  });
});
