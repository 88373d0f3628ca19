import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, test } from '../helpers/deadline.js';
import { SecretBox } from '../../src/security/secret-box.js';
import type { ClaimedAttempt } from '../../src/webhooks/outbox-store.js';
import { webhookAuthorization, webhookSignature } from '../../src/webhooks/request-credentials.js';
import { newWebhookSecret } from '../../src/webhooks/signing.js';

const box = new SecretBox(randomBytes(32));
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

function claimed(fields: Partial<ClaimedAttempt>): ClaimedAttempt {
  return {
    id: 'att-1',
    tenant_id: 't1',
    kind: 'automatic',
    created_at: '2026-12-01T00:00:00.000Z',
    analysis_id: 'an-1',
    external_id: 'ext-1',
    api_key_id: 'key-1',
    webhook_url: 'https://hooks.example.test/',
    webhook_username: null,
    webhook_password_enc: null,
    webhook_username_enc: null,
    webhook_style: null,
    webhook_signing: null,
    webhook_secret_enc: null,
    webhook_secret_previous_enc: null,
    webhook_secret_previous_until: null,
    ...fields,
  } as ClaimedAttempt;
}

/** The secrets a webhook-signature header was made with, found by trying each candidate (Standard Webhooks v1). */
function signers(headers: Record<string, string>, body: string, candidates: string[]): string[] {
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  const sigs = (headers['webhook-signature'] ?? '').split(' ');
  return sigs.map(
    (sig) =>
      candidates.find(
        (c) =>
          sig ===
          `v1,${createHmac('sha256', Buffer.from(c.slice(6), 'base64'))
            .update(signed)
            .digest('base64')}`,
      ) ?? '?',
  );
}

describe("a webhook request's credentials", () => {
  test('no username: no Authorization header', () => {
    assert.equal(webhookAuthorization(box, claimed({})), undefined);
  });

  test('a username in clear, with the sealed password, or alone with an empty password', () => {
    const password = box.seal('pa:ss wörd', 'an-1');
    assert.equal(webhookAuthorization(box, claimed({ webhook_username: 'ada', webhook_password_enc: password })), basic('ada', 'pa:ss wörd'));
    assert.equal(webhookAuthorization(box, claimed({ webhook_username: 'ada' })), basic('ada', ''));
  });

  test("a sealed username (a partner's key) is opened, and the sealed one wins over a clear one", () => {
    const row = claimed({ webhook_username_enc: box.seal('gh-key', 'an-1'), webhook_username: null });
    assert.equal(webhookAuthorization(box, row), basic('gh-key', ''));
    assert.equal(webhookAuthorization(box, { ...row, webhook_username: 'clear' }), basic('gh-key', ''));
    // Sealed for another assessment, it does not open for this one.
    assert.throws(() => webhookAuthorization(box, { ...row, analysis_id: 'an-2' }));
  });

  test('no signature headers unless the portal signs and has a secret', () => {
    const secret = box.seal(newWebhookSecret(), 'webhook-secret:key-1');
    assert.deepEqual(webhookSignature(box, claimed({}), '{}'), {});
    assert.deepEqual(webhookSignature(box, claimed({ webhook_signing: 0, webhook_secret_enc: secret }), '{}'), {});
    assert.deepEqual(webhookSignature(box, claimed({ webhook_signing: 1 }), '{}'), {});
    const signed = webhookSignature(box, claimed({ webhook_signing: 1, webhook_secret_enc: secret }), '{}');
    assert.equal(signed['webhook-id'], 'msg_an-1');
    assert.ok(Math.abs(Number(signed['webhook-timestamp']) - Date.now() / 1000) < 60);
  });

  test('the previous secret signs too while its overlap lasts, and not after', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const sealed = (s: string) => box.seal(s, 'webhook-secret:key-1');
    const row = claimed({ webhook_signing: 1, webhook_secret_enc: sealed(current), webhook_secret_previous_enc: sealed(previous) });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const earlier = new Date(Date.now() - 1_000).toISOString();
    const sign = (r: ClaimedAttempt) => signers(webhookSignature(box, r, 'body'), 'body', [current, previous]);
    assert.deepEqual(sign({ ...row, webhook_secret_previous_until: later }), [current, previous]);
    assert.deepEqual(sign({ ...row, webhook_secret_previous_until: earlier }), [current]);
    assert.deepEqual(sign({ ...row, webhook_secret_previous_until: null }), [current]);
    assert.deepEqual(sign({ ...row, webhook_secret_previous_enc: null, webhook_secret_previous_until: later }), [current]);
  });
});
