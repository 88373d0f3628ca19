import { Type } from 'typebox';
import { Envelope } from './envelopes.js';
import { ExternalId } from './fields.js';
import { IntegrityFlags, NormGroupInfo, ResultsRelease, TakenIn, StenBand } from './results.js';

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const CandidateParams = Type.Object({ ExternalId });

const Scored = Type.Object({
  Code: Type.String(),
  Name: Type.String(),
  Raw: Type.Number(),
  Sten: Type.Union([Type.Integer(), Type.Null()]),
  Percentile: Type.Union([Type.Integer(), Type.Null()]),
  StenBand: Type.Union([StenBand, Type.Null()], { description: 'Null without a sten, or when the norm group records no reliability.' }),
});

/** Everything Assay holds about one candidate: the answer to a data subject's access request. */
export const CandidateData = Envelope(
  Type.Object({
    Candidate: Type.Object({
      ExternalId: Type.String(),
      Email: Type.String(),
      FirstName: Type.String(),
      Preposition: Type.String(),
      LastName: Type.String(),
      Gender: Type.Integer(),
      NeedsToUpdateData: Type.Boolean(),
      CreatedAt: Type.String({ format: 'date-time' }),
      UpdatedAt: Type.String({ format: 'date-time' }),
    }),
    Assessments: Type.Array(
      Type.Object({
        AnalysisId: Type.String(),
        AssessmentType: Type.Integer(),
        Status: Type.String(),
        CreatedAt: Type.String({ format: 'date-time' }),
        StartedAt: Timestamp,
        CompletedAt: Timestamp,
        ExpiresAt: Timestamp,
        CancelledAt: Timestamp,
        ReturnUrl: Type.Union([Type.String(), Type.Null()]),
        WebhookUrl: Type.Union([Type.String(), Type.Null()], { description: 'Without the webhook credentials, which are never returned.' }),
        ...TakenIn,
        ResultsRelease,
        Answers: Type.Union([Type.Null(), Type.Array(Type.Object({ ItemId: Type.String(), Value: Type.Integer(), AnsweredAt: Type.String() }))], {
          description: 'Null while the candidate has not released the results (a portal setting).',
        }),
        SecondsPerPage: Type.Array(Type.Object({ Page: Type.Integer(), Seconds: Type.Number() })),
        Results: Type.Union([
          Type.Null(),
          Type.Object({
            Scales: Type.Array(Scored),
            Competences: Type.Array(Scored),
            ConsistencyScore: Type.Union([Type.Integer(), Type.Null()]),
            IntegrityFlags,
            NormGroup: NormGroupInfo,
          }),
        ]),
        Webhook: Type.Union([
          Type.Null(),
          Type.Object({
            Status: Type.String(),
            AttemptedAt: Timestamp,
            DurationMs: Type.Union([Type.Integer(), Type.Null()]),
            ResponseStatus: Type.Union([Type.Integer(), Type.Null()]),
            Error: Type.Union([Type.String(), Type.Null()]),
            Attempts: Type.Integer(),
          }),
        ]),
      }),
    ),
    Retention: Type.Object({
      Days: Type.Integer({ description: "RETENTION_DAYS, or the tenant's own." }),
      ErasedAfter: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'When the retention sweep will erase this candidate; null while an assessment is open and has no expiry.',
      }),
    }),
  }),
  200,
);

export const CandidateErased = Envelope(Type.Object({ ExternalId: Type.String(), ErasedAssessments: Type.Integer(), ErasedAnswers: Type.Integer() }), 200);
