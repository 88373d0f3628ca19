import assert from 'node:assert/strict';
import { apiClient, type Credentials } from './http.js';

export const LIST = '/api/anonymous/assessments';

/** One page of the list, asserted to be a 200 in the success envelope. */
export async function listPage(url: string, creds: Credentials, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await apiClient(url, creds).get(`${LIST}${qs ? `?${qs}` : ''}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.StatusCode, 200);
  assert.equal(res.body.Message, null);
  return res.body.Data as { Assessments: Array<Record<string, any>>; Cursor: string | null };
}

/** The AnalysisIds of every page of a walk, in order, following each Cursor to the last (null) one. */
export async function walk(url: string, creds: Credentials, query: Record<string, string | number> = {}, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1_000; page++) {
    const data = await listPage(url, creds, cursor === null ? query : { ...query, Cursor: cursor });
    ids.push(...data.Assessments.map((a) => String(a.AnalysisId)));
    if (data.Cursor === null) return ids;
    cursor = data.Cursor;
    await between?.(page);
  }
  throw new Error('the walk did not end within 1,000 pages');
}
