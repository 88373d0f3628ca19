import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { assessmentRow, checkOrder, type AssessmentOrder } from '../../src/assessments/create-assessment.js';
import type { FieldNames } from '../../src/assessments/rules.js';
import { DomainError } from '../../src/domain/errors.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { describe, test } from '../helpers/deadline.js';

const NAMES: FieldNames = {
  externalId: 'person',
  assessmentType: 'test',
  returnUrl: 'back',
  webhookUrl: 'callback',
  webhookUsername: 'user',
  webhookPassword: 'secret',
  expiresAt: 'until',
  sendInvitation: 'mail',
};
const config = { webhook: { allowPrivateNetworks: false }, lifecycle: { expiryDays: 30 } } as never;
const secretBox = new SecretBox(Buffer.alloc(32, 7));
const requester = { tenantId: 't1', apiKeyId: 'k1', portalDomain: 'https://portal.example' };
const order: AssessmentOrder = {
  externalId: 'e1',
  assessmentType: 2,
  returnUrl: 'https://ats.example/back',
  webhookUrl: 'https://ats.example/hook',
  webhookUsername: 'u',
  webhookPassword: 'p',
  expiresAt: undefined,
  invitation: 'send',
};

describe('the row an order creates', () => {
  test("the requester's tenant, key and portal; the webhook password sealed to the row; expiry the default days ahead", () => {
    const before = Date.now();
    const row = assessmentRow({ secretBox, config }, requester, checkOrder({ config }, order, NAMES), 'A1');
    assert.deepEqual([row.tenant_id, row.api_key_id, row.portal_domain, row.external_id, row.assessment_type], ['t1', 'k1', 'https://portal.example', 'e1', 2]);
    assert.equal(row.status, 'Created');
    assert.equal(row.webhook_username, 'u');
    assert.equal(secretBox.open(row.webhook_password_enc!, 'A1'), 'p');
    assert.throws(() => secretBox.open(row.webhook_password_enc!, 'A2'), 'sealed to its own AnalysisId');
    const days = (Date.parse(row.expires_at!) - before) / 86_400_000;
    assert.ok(days >= 29.99 && days <= 30.01, `${days} days`);
    assert.equal(row.ordered_via, undefined);
    assert.equal(row.order_key, undefined);
  });

  test("an ATS's order: the completion call is a PATCH authenticated by the partner's sealed key, keyed by its URL", () => {
    const partnerOrder = { ...order, returnUrl: undefined, webhookUsername: undefined, webhookPassword: undefined, partner: { via: 'ats', key: 'k-9' } };
    const row = assessmentRow({ secretBox, config }, requester, checkOrder({ config }, partnerOrder, NAMES), 'A3');
    assert.equal(row.ordered_via, 'ats');
    assert.equal(row.webhook_style, 'patch');
    assert.equal(secretBox.open(row.webhook_username_enc!, 'A3'), 'k-9');
    assert.equal(row.order_key, createHash('sha256').update('https://ats.example/hook').digest('hex'));
    assert.equal(row.webhook_password_enc, null);
  });

  test("an order's rules speak the door's names: a past expiry, a private webhook", () => {
    const named = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        assert.ok(e instanceof DomainError);
        return `${String(e.details.field)}: ${e.message}`;
      }
      return 'no error';
    };
    const checked = checkOrder({ config }, { ...order, expiresAt: '2001-01-01T00:00:00Z' }, NAMES);
    assert.equal(
      named(() => assessmentRow({ secretBox, config }, requester, checked, 'A4')),
      'until: until must be in the future',
    );
    assert.match(
      named(() => checkOrder({ config }, { ...order, webhookUrl: 'http://127.0.0.1/x' }, NAMES)),
      /^callback: callback must point at a public address/,
    );
  });
});
