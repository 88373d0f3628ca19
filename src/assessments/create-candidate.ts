import type { Deps } from '../app-types.js';
import { insertCandidate } from './candidates-store.js';
import type { Requester } from './requester.js';

export interface NewPerson {
  externalId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** '' when not given, as gender 0 (unknown) and needsToUpdateData false. */
  preposition?: string;
  /** 0 unknown, 1 male, 2 female, 3 neutral. */
  gender?: number;
  needsToUpdateData?: boolean;
}

/**
 * Creates the requester's tenant's candidate, unless the ExternalId exists in any tenant:
 * `exists` then, and nothing changes. Of racing creates one wins.
 */
export async function createCandidate(deps: Pick<Deps, 'store'>, requester: Pick<Requester, 'tenantId'>, person: NewPerson): Promise<'created' | 'exists'> {
  const at = new Date().toISOString();
  const inserted = await insertCandidate(deps.store, {
    external_id: person.externalId,
    tenant_id: requester.tenantId,
    email: person.email,
    first_name: person.firstName,
    last_name: person.lastName,
    preposition: person.preposition ?? '',
    gender: person.gender ?? 0,
    needs_to_update_data: person.needsToUpdateData === true ? 1 : 0,
    created_at: at,
    updated_at: at,
  });
  return inserted ? 'created' : 'exists';
}
