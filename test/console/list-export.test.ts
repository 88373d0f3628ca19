import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient } from '../helpers/http.js';
import { activateTestNorms } from '../helpers/norms.js';
import { exportCandidateList, neutralise } from '../../src/console/list-export.js';
import type { ListQuery } from '../../src/console/list-query.js';

/** RFC 4180 as a spreadsheet reads it: quoted fields with doubled quotes, CRLF or LF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && ch === '"') quoted = false;
    else if (quoted) field += ch;
    else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endField();
      records.push(record);
      record = [];
    } else field += ch;
  }
  if (field || record.length) {
    endField();
    records.push(record);
  }
  return records;
}

describe('a CSV cell a spreadsheet would run', () => {
  test('=, +, -, @, tab and carriage return first are prefixed with an apostrophe; other cells are left alone', () => {
    const cases: Array<[string, string]> = [
      ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
      ['+31 6 1234', "'+31 6 1234"],
      ['-2+3', "'-2+3"],
      ['@cmd', "'@cmd"],
      ['\tx', "'\tx"],
      ['\rx', "'\rx"],
      ['Anna', 'Anna'],
      ['a=b', 'a=b'],
      ['', ''],
      [' =x', ' =x'],
      ["'=x", "'=x"],
      ['2026-03-01T09:30:00.000Z', '2026-03-01T09:30:00.000Z'],
    ];
    for (const [cell, expected] of cases) assert.equal(neutralise(cell), expected, JSON.stringify(cell));
  });
});

suiteOnEachDatabase("the console list's CSV export", {}, ({ server, creds }) => {
  let done: { id: string; externalId: string };
  let formula: { id: string; externalId: string };
  const instruments = [{ assessmentType: 0, code: 'TMA170' }];
  const csv = async (query: ListQuery) => {
    const chunks: Buffer[] = [];
    const deps = server.running.deps;
    for await (const chunk of exportCandidateList(deps, creds.tenantId, query, instruments)) chunks.push(Buffer.from(chunk));
    return parseCsv(Buffer.concat(chunks).toString('utf8'));
  };

  before(async () => {
    await activateTestNorms(server.running.deps.store);
    done = await newAssessment(server.url, creds, { AssessmentType: 0 }, { FirstName: 'Anna', LastName: 'Aalders' });
    await completeViaForms(new FormClient(server.url), done.id, {
      details: { FirstName: 'Anna', Preposition: '', LastName: 'Aalders', Email: 'a@example.test' },
    });
    formula = await newAssessment(server.url, creds, { AssessmentType: 0 }, { FirstName: '=HYPERLINK("http://x")', LastName: '-Min' });
  });

  test("one row per assessment, with statuses and dates; a completed, released, normed one has its norm group and each scale's sten as the API gives it", async () => {
    const [header, ...rows] = await csv({ sort: 'invited', descending: false, instrument: 'TMA170' });
    assert.deepEqual(header!.slice(0, 11), [
      'ExternalId',
      'FirstName',
      'Preposition',
      'LastName',
      'Instrument',
      'Status',
      'InvitedAt',
      'CompletedAt',
      'ResultsRelease',
      'IntegrityFlags',
      'NormGroup',
    ]);
    assert.deepEqual(
      rows.map((r) => r[0]),
      [done.externalId, formula.externalId],
    );
    const api = apiClient(server.url, creds);
    const lookup = (await api.get(`/api/anonymous/assessment/${done.id}`)).body.Data;
    const [d] = rows;
    assert.deepEqual(d!.slice(4, 9), ['TMA170', 'Completed', lookup.CreatedAt, lookup.CompletedAt, 'NotRequired']);
    assert.notEqual(d![10], '', 'a norm group');
    const result = (await api.get(`/api/candidateanalysisresult/${done.id}/en-GB`)).body;
    const scales = header!.slice(11);
    assert.ok(scales.length > 0);
    for (const [i, s] of result.NormScoreScales.entries()) {
      assert.equal(d![11 + scales.indexOf(s.ExternalCode)], String(result.NormScores[i].Value), s.ExternalCode);
    }
  });

  test('a cell that would run as a formula comes out neutralised', async () => {
    const [, ...rows] = await csv({ sort: 'invited', descending: false });
    const f = rows.find((r) => r[0] === formula.externalId)!;
    assert.equal(f[1], `'=HYPERLINK("http://x")`);
    assert.equal(f[3], "'-Min");
    assert.equal(f[5], 'Created');
  });

  test('without an instrument the stens share one column; withheld results export no stens', async () => {
    const [header, ...rows] = await csv({ sort: 'invited', descending: false });
    assert.equal(header!.at(-1), 'Stens');
    assert.match(rows[0]!.at(-1)!, /^[A-Z_]+=\d+(; [A-Z_]+=\d+)+$/);
    await server.running.deps.store.db.updateTable('assessments').set({ results_release: 'pending' }).where('analysis_id', '=', done.id).execute();
    const [, ...after] = await csv({ sort: 'invited', descending: false });
    assert.equal(after[0]![8], 'Pending');
    assert.equal(after[0]![10], '', 'no norm group');
    assert.equal(after[0]!.at(-1), '', 'no stens');
  });
});
