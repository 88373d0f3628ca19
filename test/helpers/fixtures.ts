import assert from 'node:assert/strict';
import { apiClient, candidate, type Credentials } from './http.js';
import { untilServed } from './served.js';

/**
 * A candidate and an assessment for it through the API, each sent again while shed (503); returns
 * the AnalysisId and the API client.
 */
export async function newAssessment(
  baseUrl: string,
  creds: Credentials,
  assessment: Record<string, unknown> = {},
  candidateFields: Record<string, unknown> = {},
): Promise<{ id: string; externalId: string; url: string; api: ReturnType<typeof apiClient> }> {
  const api = apiClient(baseUrl, creds);
  const body = candidate({ Gender: 1, ...candidateFields });
  const c = await untilServed(() => api.createCandidate(body));
  assert.equal(c.status, 201, c.text);
  const a = await untilServed(() => api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0, ...assessment }));
  assert.equal(a.status, 201, a.text);
  return { id: a.body.Data.AnalysisId, externalId: String(body.ExternalId), url: a.body.Data.AssessmentUrl, api };
}
