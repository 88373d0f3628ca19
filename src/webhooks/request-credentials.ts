import type { SecretBox } from '../security/secret-box.js';
import { basicAuthorization } from '../security/basic-auth.js';
import type { ClaimedAttempt } from './outbox-store.js';
import { messageId, secretContext, signatureHeaders } from './signing.js';

/** Basic credentials, when the assessment has a username: in clear, or sealed when it is itself a secret (a partner's key). */
export function webhookAuthorization(box: SecretBox, row: ClaimedAttempt): string | undefined {
  const username = row.webhook_username_enc ? box.open(row.webhook_username_enc, row.analysis_id) : row.webhook_username;
  if (username === null) return undefined;
  return basicAuthorization(username, row.webhook_password_enc ? box.open(row.webhook_password_enc, row.analysis_id) : '');
}

/**
 * Standard Webhooks headers when the portal signs its webhooks (the settings came with the
 * claim): the current secret, and the last one while its overlap lasts.
 */
export function webhookSignature(box: SecretBox, row: ClaimedAttempt, body: string): Record<string, string> {
  if (row.webhook_signing !== 1 || !row.webhook_secret_enc) return {};
  const context = secretContext(row.api_key_id);
  const secrets = [box.open(row.webhook_secret_enc, context)];
  const previousUntil = row.webhook_secret_previous_until;
  if (row.webhook_secret_previous_enc && previousUntil && Date.parse(previousUntil) > Date.now())
    secrets.push(box.open(row.webhook_secret_previous_enc, context));
  return signatureHeaders(secrets, messageId(row.analysis_id), new Date(), body);
}
