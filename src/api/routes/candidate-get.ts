import type { App, Deps } from '../../app-types.js';
import { readCandidate } from '../../assessments/views.js';
import { DomainError } from '../../domain/errors.js';
import { CandidateData, CandidateParams } from '../../schemas/candidate-data.js';
import { apiErrors } from '../../schemas/errors.js';
import { assessmentHeld } from '../assessment-view.js';

/** A data subject's access request in one call: everything Assay holds about the candidate. */
export function candidateGet(app: App, deps: Deps): void {
  app.get(
    '/api/anonymous/candidate/:ExternalId',
    {
      schema: {
        summary: 'Everything held about a candidate (extension)',
        description:
          "Not in the original specification. For a data subject's access request: the candidate's fields, every assessment with its status, answers, " +
          'time per page, results and webhook outcome (never the webhook credentials), and when retention will erase it all. Answers and results stay ' +
          "out while the candidate has not released them (a portal setting), and until the candidate finishes (time per page too). Tenant-scoped: another tenant's candidate is 404.",
        tags: ['Candidates'],
        params: CandidateParams,
        response: { 200: CandidateData, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    async (request) => {
      const { ExternalId } = request.params;
      const record = await readCandidate(deps, request.caller!, ExternalId);
      if (!record) throw new DomainError('NotFound', 'No candidate found with this ExternalId', { field: 'ExternalId' });
      const { candidate, erasedAfter } = record;
      return {
        StatusCode: 200,
        Message: null,
        Data: {
          Candidate: {
            ExternalId: candidate.external_id,
            Email: candidate.email,
            FirstName: candidate.first_name,
            Preposition: candidate.preposition,
            LastName: candidate.last_name,
            Gender: candidate.gender,
            NeedsToUpdateData: candidate.needs_to_update_data === 1,
            CreatedAt: candidate.created_at,
            UpdatedAt: candidate.updated_at,
          },
          Assessments: record.assessments.map(assessmentHeld),
          Retention: { Days: record.retentionDays, ErasedAfter: erasedAfter === null ? null : new Date(erasedAfter).toISOString() },
        },
      };
    },
  );
}
