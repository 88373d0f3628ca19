import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new Standard Webhooks secret: whsec_ and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers for one delivery, made with the standardwebhooks package. During
 * a rotation's overlap there are two secrets and two signatures, space-separated, so a receiver
 * that still has the old secret verifies too. The id is the same for every attempt of one
 * assessment's completion: receivers can tell a redelivery from a new event.
 */
export function signatureHeaders(secrets: readonly string[], msgId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(msgId, at, body)).join(' '),
  };
}

/** What a portal's signing secret is sealed under: a secret sealed for one key cannot be opened as another's. */
export const secretContext = (apiKeyId: string) => `webhook-secret:${apiKeyId}`;

/** The message id of an assessment's completion event. */
export const messageId = (analysisId: string) => `msg_${analysisId}`;
