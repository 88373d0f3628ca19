import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { CandidateCreateBody, CandidateCreated } from '../../schemas/candidate.js';
import { apiErrors } from '../../schemas/errors.js';
import { insertCandidate } from '../../assessments/candidates-store.js';
import { caseInsensitiveBody } from '../case-insensitive.js';
import { bodyExternalId, idempotentCreate } from '../../idempotency/hooks.js';
import { IdempotencyHeaders } from '../../schemas/idempotency.js';

export function candidateCreate(app: App, { store }: Deps): void {
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
      ...idempotentCreate(store, bodyExternalId),
      preValidation: caseInsensitiveBody(CandidateCreateBody),
    },
    async (request, reply) => {
      const body = request.body;
      const now = new Date().toISOString();
      const inserted = await insertCandidate(store, {
        external_id: body.ExternalId,
        tenant_id: request.caller!.tenantId,
        email: body.Email,
        first_name: body.FirstName,
        last_name: body.LastName,
        preposition: body.Preposition,
        gender: body.Gender ?? 0,
        needs_to_update_data: body.NeedsToUpdateData ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
      if (!inserted) {
        throw new DomainError('ExternalIdAlreadyExists', 'The provided ID already exists', { field: 'ExternalId' });
      }
      return reply.code(201).send({ StatusCode: 201, Message: null, Data: { ExternalId: body.ExternalId } });
    },
  );
}
