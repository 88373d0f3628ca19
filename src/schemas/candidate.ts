import { Type, type Static } from 'typebox';
import { Envelope } from './envelopes.js';
import { Email, ExternalId, FirstName, Gender, LastName, Preposition } from './fields.js';

export const CandidateCreateBody = Type.Object(
  {
    ExternalId,
    Email,
    FirstName,
    LastName,
    Preposition,
    Gender: Type.Optional(Gender),
    NeedsToUpdateData: Type.Optional(Type.Boolean({ default: false, description: 'When true the candidate re-enters their details before starting.' })),
  },
  { description: 'Property names match case-insensitively; unknown properties are ignored.' },
);
export type CandidateCreateBody = Static<typeof CandidateCreateBody>;

export const CandidateCreated = Envelope(Type.Object({ ExternalId: Type.String() }), 201);

/** What the portal's update-details form asks, under the same rules as the API. */
export const CandidateDetails = Type.Object({ FirstName, Preposition, LastName, Email });
export type CandidateDetails = Static<typeof CandidateDetails>;
