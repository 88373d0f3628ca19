import { Type, type Static } from 'typebox';
import { Envelope } from './envelopes.js';
import { AbsoluteUrl, ExternalId, LIMITS, Text } from './fields.js';

export const AssessmentCreateBody = Type.Object(
  {
    ExternalId,
    AssessmentType: Type.Integer({ minimum: 0, maximum: 1, description: '0 = TMA170, 1 = TMA312.' }),
    ReturnUrl: Type.Optional(AbsoluteUrl('Where the candidate goes on completion; absolute http(s).')),
    WebhookUrl: Type.Optional(AbsoluteUrl('Receives one POST on completion; absolute http(s), public address.')),
    WebhookUsername: Type.Optional(Text(1, LIMITS.webhookUsername, 'Basic user for the webhook POST.')),
    WebhookPassword: Type.Optional(Text(0, LIMITS.webhookPassword, 'Basic password; needs WebhookUsername.')),
  },
  { description: 'Property names match case-insensitively; unknown properties are ignored.' },
);
export type AssessmentCreateBody = Static<typeof AssessmentCreateBody>;

export const AssessmentCreated = Envelope(
  Type.Object({
    AnalysisId: Type.String({ description: 'The assessment token: the last path segment of AssessmentUrl.' }),
    AssessmentUrl: Type.String({ description: '{portal_domain}/anonymous/analyse/start/{AnalysisId}' }),
  }),
  201,
);
