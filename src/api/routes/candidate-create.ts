import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { CandidateCreateBody, CandidateCreated } from '../../schemas/candidate.js';
import { apiErrors } from '../../schemas/errors.js';
import { createCandidate } from '../../assessments/create-candidate.js';
import { caseInsensitiveBody } from '../case-insensitive.js';
import { bodyExternalId, idempotentCreate } from '../../idempotency/hooks.js';
import { IdempotencyHeaders } from '../../schemas/idempotency.js';

export function candidateCreate(app: App, deps: Deps): void {
  app.post(
    '/api/anonymous/candidate',
    {
      schema: {
        summary: 'Create a candidate',
        tags: ['Candidates'],
        headers: IdempotencyHeaders,
        body: CandidateCreateBody,
        response: { 201: CandidateCreated, ...apiErrors({ body: true }, 'ExternalIdAlreadyExists', 'IdempotencyKeyInUse', 'IdempotencyKeyReused') },
      },
      ...idempotentCreate(deps.store, bodyExternalId),
      preValidation: caseInsensitiveBody(CandidateCreateBody),
    },
    async (request, reply) => {
      const body = request.body;
      const created = await createCandidate(deps, request.caller!, {
        externalId: body.ExternalId,
        email: body.Email,
        firstName: body.FirstName,
        lastName: body.LastName,
        preposition: body.Preposition,
        gender: body.Gender,
        needsToUpdateData: body.NeedsToUpdateData,
      });
      if (created === 'exists') {
        throw new DomainError('ExternalIdAlreadyExists', 'The provided ID already exists', { field: 'ExternalId' });
      }
      return reply.code(201).send({ StatusCode: 201, Message: null, Data: { ExternalId: body.ExternalId } });
    },
  );
}
