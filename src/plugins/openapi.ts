import type { SwaggerOptions } from '@fastify/swagger';

/** The OpenAPI 3.1 document is generated from the route schemas; this adds what routes cannot say. */
export function openApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Assay candidate assessment API',
        version: '1.0.0',
        description:
          'Creates candidates and TMA170/TMA312 assessments. Every request carries HTTP Basic credentials and an api-key header. ' +
          'Every error body is the ErrorEnvelope: {"error":{"code","message","innererror"}}. Error codes: ExternalIdAlreadyExists, ' +
          'NoCandidateFound, InvalidAssessmentType, ValidationError, WebhookUrlNotAllowed, InvalidJson, UnsupportedMediaType, ' +
          'PayloadTooLarge, InvalidApiKey, InvalidCredentials, NotFound, TooManyRequests, ServiceUnavailable, InternalError.',
      },
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic' },
          apiKey: { type: 'apiKey', in: 'header', name: 'api-key' },
        },
      },
      security: [{ basicAuth: [], apiKey: [] }],
      tags: [
        { name: 'Candidates' },
        { name: 'Assessments' },
        { name: 'Results', description: 'TMA\'s classic results endpoint, with Assay\'s extensions.' },
        { name: 'Webhooks', description: 'The delivery log and manual redelivery: beyond the original specification.' },
        { name: 'Extensions', description: 'Beyond the original specification.' },
        { name: 'Operations' },
      ],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  };
}
