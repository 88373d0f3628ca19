import { Type, type Static } from 'typebox';
import { Envelope } from './envelopes.js';
import { AbsoluteUrl, AnalysisIdParam, ExternalId, LIMITS, Text } from './fields.js';
import { IntegrityFlags, NormGroupInfo, ReportUrl, ResultsRelease, TakenIn } from './results.js';
import { portalStartPath } from '../domain/portal-paths.js';

export const AssessmentCreateBody = Type.Object(
  {
    ExternalId,
    AssessmentType: Type.Integer({ minimum: 0, maximum: 2, description: '0 = TMA170, 1 = TMA312, 2 = SPI (SAPA Personality Inventory).' }),
    ReturnUrl: Type.Optional(AbsoluteUrl('Where the candidate goes on completion; absolute http(s).')),
    WebhookUrl: Type.Optional(AbsoluteUrl('Receives one POST on completion; absolute http(s), public address.')),
    WebhookUsername: Type.Optional(Text(1, LIMITS.webhookUsername, 'Basic user for the webhook POST.')),
    WebhookPassword: Type.Optional(Text(0, LIMITS.webhookPassword, 'Basic password; needs WebhookUsername.')),
    ExpiresAt: Type.Optional(
      Text(
        1,
        40,
        'Extension: when the link stops working, an ISO-8601 date-time with a time zone, in the future. Default: ASSESSMENT_EXPIRY_DAYS (90) after creation.',
      ),
    ),
    SendInvitation: Type.Optional(
      Type.Boolean({
        description:
          "Extension: e-mail the candidate an invitation with the link (true), or not (false). Omitted: the portal's default, which is off unless set. Needs SMTP_URL on the server: without it, true is a 400. Past the server's caps on invitations to one address an hour or per tenant a minute, 429 with Retry-After, and nothing is created.",
      }),
    ),
  },
  { description: 'Property names match case-insensitively; unknown properties are ignored.' },
);
export type AssessmentCreateBody = Static<typeof AssessmentCreateBody>;

export const AssessmentCreated = Envelope(
  Type.Object({
    AnalysisId: Type.String({ description: 'The assessment token: the last path segment of AssessmentUrl.' }),
    AssessmentUrl: Type.String({ description: `{portal_domain}${portalStartPath('{AnalysisId}')}` }),
  }),
  201,
);

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const AssessmentParams = Type.Object({ AnalysisId: AnalysisIdParam });

/** One assessment as its lookup and the tenant's list show it. */
export const AssessmentView = Type.Object({
  AnalysisId: Type.String(),
  ExternalId: Type.String(),
  AssessmentType: Type.Integer(),
  AssessmentUrl: Type.String(),
  Status: Type.Union(
    ['Created', 'Started', 'Completed', 'Expired', 'Cancelled'].map((s) => Type.Literal(s)),
    {
      description: 'Expired: not completed before ExpiresAt. Cancelled: withdrawn with DELETE. Both are final; no webhook is sent for them.',
    },
  ),
  CreatedAt: Type.String({ format: 'date-time' }),
  StartedAt: Timestamp,
  CompletedAt: Timestamp,
  ExpiresAt: Timestamp,
  CancelledAt: Timestamp,
  AnsweredItems: Type.Integer({ description: "Statements answered so far: the candidate's progress." }),
  TotalItems: Type.Integer({ description: 'Statements in the questionnaire.' }),
  ConsistencyScore: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Once completed: 0–100, the within-person correlation of designated item pairs, or of the norm group\'s synonym pairs (0 when negative or without variation); see docs/RESULTS.md "Results".',
  }),
  IntegrityFlags: Type.Union([Type.Null(), IntegrityFlags], {
    description: 'Once completed: StraightLining, Speeding, LowConsistency, EvenOdd, Synonyms, LongString, Outlier; see docs/RESULTS.md "Results".',
  }),
  NormGroup: NormGroupInfo,
  ...TakenIn,
  ResultsRelease,
  ReportUrl,
  Webhook: Type.Union([
    Type.Null(),
    Type.Object(
      {
        Status: Type.Union(['NotSent', 'Pending', 'Sending', 'Delivered', 'Failed', 'Unknown'].map((s) => Type.Literal(s))),
        AttemptedAt: Timestamp,
        DurationMs: Type.Union([Type.Integer(), Type.Null()]),
        ResponseStatus: Type.Union([Type.Integer(), Type.Null()]),
        Error: Type.Union([Type.String(), Type.Null()]),
        Attempts: Type.Integer({ description: 'Attempts so far: the automatic one and any manual redeliveries. The log: GET …/webhooks.' }),
      },
      { description: 'The latest delivery attempt. Null when the assessment has no WebhookUrl.' },
    ),
  ]),
  Scores: Type.Union([
    Type.Null(),
    Type.Array(
      Type.Object({
        Scale: Type.String(),
        Name: Type.String(),
        Raw: Type.Number(),
        Mean: Type.Number(),
        Items: Type.Integer(),
      }),
      { description: 'Per scale, once completed: mean of the item responses on the response scale of the instrument, negatively keyed items reversed.' },
    ),
  ]),
});

export const AssessmentStatus = Envelope(AssessmentView, 200);

export const AssessmentCancelled = Envelope(
  Type.Object({ AnalysisId: Type.String(), Status: Type.Literal('Cancelled'), CancelledAt: Type.String({ format: 'date-time' }) }),
  200,
);

export const ReportLinksRevoked = Envelope(
  Type.Object({
    AnalysisId: Type.String(),
    Revoked: Type.Literal(true, { description: 'Every share link made before now stops working; ReportUrl gives a new one.' }),
  }),
  200,
);

export const WebhookAttempt = Type.Object({
  Id: Type.String(),
  Kind: Type.Union([Type.Literal('Automatic'), Type.Literal('Manual'), Type.Literal('Release')], {
    description:
      'Automatic: at completion. Manual: a redelivery an operator asked for. Release: a Greenhouse order PATCHed again because the candidate released withheld results. A retry has the kind of the attempt it retries.',
  }),
  Status: Type.Union(['Pending', 'Sending', 'Delivered', 'Failed', 'Unknown'].map((s) => Type.Literal(s))),
  CreatedAt: Type.String({ format: 'date-time' }),
  AttemptedAt: Timestamp,
  DurationMs: Type.Union([Type.Integer(), Type.Null()]),
  ResponseStatus: Type.Union([Type.Integer(), Type.Null()]),
  Error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed, without the addresses a host name resolved to.' }),
});

export const WebhookLog = Envelope(Type.Array(WebhookAttempt), 200);

export const RedeliveryQueued = Envelope(Type.Object({ AttemptId: Type.String(), Status: Type.Literal('Pending') }), 202);
