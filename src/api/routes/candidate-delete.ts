import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { CandidateErased, CandidateParams } from '../../schemas/candidate-data.js';
import { apiErrors } from '../../schemas/errors.js';
import { eraseCandidate } from '../../lifecycle/erase.js';

/** A data subject's erasure request in one call. */
export function candidateDelete(app: App, deps: Deps): void {
  app.delete(
    '/api/anonymous/candidate/:ExternalId',
    {
      schema: {
        summary: "Erase a candidate's personal data (extension)",
        description:
          "Not in the original specification. Removes the candidate's fields and every assessment of theirs: answers, scores, page times, reports and " +
          'their share links, webhook credentials and outcomes. The assessment links stop working and the ExternalId may be used again. ' +
          "An audit row keeps when, by which API key and how much, with no personal data. Tenant-scoped: another tenant's candidate is 404.",
        tags: ['Candidates'],
        params: CandidateParams,
        response: { 200: CandidateErased, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    async (request) => {
      const { ExternalId } = request.params;
      const caller = request.caller!;
      const erased = await eraseCandidate(deps, ExternalId, { tenantId: caller.tenantId, erasedBy: `api:${caller.apiKeyId}`, reason: 'request' });
      if (!erased) throw new DomainError('NotFound', 'No candidate found with this ExternalId', { field: 'ExternalId' });
      return { StatusCode: 200, Message: null, Data: { ExternalId, ErasedAssessments: erased.assessments, ErasedAnswers: erased.answers } };
    },
  );
}
