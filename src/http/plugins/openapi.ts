import type { SwaggerOptions } from '@fastify/swagger';

/** Operations open to anyone: probes. Everything else documented is under /api and authenticated. */
const OPEN = new Set(['/healthz', '/readyz']);
const BOTH_CREDENTIALS = [{ basicAuth: [], apiKey: [] }];
/** The original specification's two operations; every other /api operation is Assay's extension. */
const SPEC = new Set(['/api/anonymous/candidate', '/api/anonymous/assessment']);

const DESCRIPTION = `
Assay runs TMA170 and TMA312 assessments for applicant-tracking systems (ATS): register a candidate,
create an assessment, send the candidate to its \`AssessmentUrl\`, and hear about completion by webhook.

## Authentication
Every \`/api\` operation needs **both** HTTP Basic credentials (the ATS's user) **and** an \`api-key\`
header. The key decides the portal domain of the \`AssessmentUrl\`s it creates; the user must belong to the
key's tenant. In "Authorize", fill in both. The API key is checked first (\`InvalidApiKey\`), then the
user (\`InvalidCredentials\`). \`/healthz\` and \`/readyz\` are open.

## Errors
Every error, from every operation, is the same envelope:
\`{"error":{"code":"…","message":"…","innererror":{…}}}\`. Each operation lists the codes it returns,
grouped by HTTP status, with an example of each. Validation errors name the field and the rule in
\`innererror\`. \`429\` and \`503\` carry \`Retry-After\`.

## Webhooks
When a candidate finishes, Assay POSTs \`{"Analysis_Id":"…","External_Id":"…"}\` once to the
assessment's \`WebhookUrl\`, with Basic credentials when \`WebhookUsername\` was given. There are no automatic
retries; the delivery log and a manual redelivery are below (Webhooks). A portal may turn on
Standard Webhooks signatures (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`).

## Extensions beyond the original specification
The original specification has two operations: create a candidate, create an assessment. Assay adds,
marked "(extension)": the status lookup, cancelling an assessment, the results endpoint in TMA's own
format, the report (HTML and PDF), the candidate's data (access and erasure), the webhook log and
redelivery, and the mail log and invitation resend. Assessment creation also takes an optional
\`ExpiresAt\` and \`SendInvitation\`.

The candidate portal (the \`AssessmentUrl\`) and report share links are web pages for people, not API
operations, and are not described here.
`.trim();

/** The OpenAPI 3.1 document is generated from the route schemas; this adds what routes cannot say. */
export function openApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Assay candidate assessment API', version: '1.0.0', description: DESCRIPTION },
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic', description: "The ATS user's name and password" },
          apiKey: { type: 'apiKey', in: 'header', name: 'api-key', description: 'The API key; it decides the portal domain' },
        },
      },
      tags: [
        { name: 'Candidates' },
        { name: 'Assessments' },
        { name: 'Results', description: "TMA's classic results endpoint, with Assay's extensions, and the report." },
        { name: 'Extensions', description: 'The status lookup and cancelling an assessment: beyond the original specification.' },
        { name: 'Webhooks', description: 'The delivery log and manual redelivery (extensions).' },
        {
          name: 'Mail',
          description: 'Invitations and reminders e-mailed to candidates, when the server has SMTP_URL: sending again, and the mail log (extensions).',
        },
        { name: 'Operations', description: 'Probes for balancers and orchestrators; no credentials.' },
      ],
    },
    // Security per operation: the probes are open, the API needs both credentials. Portal pages,
    // report share links, assets and the front door are for browsers and stay out of the document.
    transform: ({ schema, url }) => {
      if (OPEN.has(url)) return { schema: { ...schema, security: [] }, url };
      if (url.startsWith('/api/')) {
        const extension = SPEC.has(url) ? {} : { 'x-assay-extension': true };
        return { schema: { ...schema, security: BOTH_CREDENTIALS, ...extension }, url };
      }
      return { schema: { ...schema, hide: true }, url };
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  };
}
