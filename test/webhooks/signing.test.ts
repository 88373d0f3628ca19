import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, test } from '../helpers/deadline.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { messageId, newWebhookSecret, secretContext, signatureHeaders } from '../../src/webhooks/signing.js';

// The Standard Webhooks signature, from its spec: v1, then base64 of HMAC-SHA256 over
// "<id>.<unix seconds>.<body>", keyed with the base64 after whsec_.
const v1 = (secret: string, id: string, seconds: number, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${seconds}.${body}`)
    .digest('base64')}`;

describe('webhook signing', () => {
  test('a new secret is whsec_ and 24 random bytes in base64, a different one each time', () => {
    const secrets = new Set(Array.from({ length: 20 }, () => newWebhookSecret()));
    assert.equal(secrets.size, 20);
    for (const s of secrets) {
      assert.match(s, /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.equal(Buffer.from(s.slice(6), 'base64').length, 24);
    }
  });

  test('one secret: the id, the whole seconds of the time, and its v1 signature', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const at = new Date(1_790_000_000_999);
    const body = '{"AnalysisId":"a1"}';
    assert.deepEqual(signatureHeaders([secret], 'msg_a1', at, body), {
      'webhook-id': 'msg_a1',
      'webhook-timestamp': '1790000000',
      'webhook-signature': v1(secret, 'msg_a1', 1_790_000_000, body),
    });
  });

  test('during a rotation both secrets sign, space-separated, the current one first', () => {
    const [now, old] = [newWebhookSecret(), newWebhookSecret()];
    const at = new Date(1_790_000_123_000);
    const headers = signatureHeaders([now, old], 'msg_b2', at, 'body');
    assert.equal(headers['webhook-signature'], `${v1(now, 'msg_b2', 1_790_000_123, 'body')} ${v1(old, 'msg_b2', 1_790_000_123, 'body')}`);
  });

  test("an assessment's event id is msg_ and its AnalysisId, the id every attempt of it carries", () => {
    assert.equal(messageId('Xy7'), 'msg_Xy7');
  });

  test("a portal's secret sealed under one key's context opens under it and under no other key's", () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('whsec_x', secretContext('key-1'));
    assert.equal(box.open(sealed, secretContext('key-1')), 'whsec_x');
    assert.throws(() => box.open(sealed, secretContext('key-2')));
    // Secrets already sealed in databases stay openable: the context's wording is kept.
    assert.equal(box.open(box.seal('s', 'webhook-secret:key-3'), secretContext('key-3')), 's');
  });
});
