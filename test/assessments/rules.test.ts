import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { assessmentCode, assessmentUrl, checkAssessmentRequest as check, type AssessmentRequest, type FieldNames } from '../../src/assessments/rules.js';
import { DomainError } from '../../src/domain/errors.js';

const NAMES: FieldNames = {
  externalId: 'ExternalId',
  assessmentType: 'AssessmentType',
  returnUrl: 'ReturnUrl',
  webhookUrl: 'WebhookUrl',
  webhookUsername: 'WebhookUsername',
  webhookPassword: 'WebhookPassword',
  expiresAt: 'ExpiresAt',
  sendInvitation: 'SendInvitation',
};
const checkAssessmentRequest = (req: Parameters<typeof check>[0], allowPrivate: boolean) => check(req, allowPrivate, NAMES);

const base: AssessmentRequest = { assessmentType: 0, returnUrl: undefined, webhookUrl: undefined, webhookUsername: undefined, webhookPassword: undefined };

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DomainError);
    return e.code;
  }
  return 'no error';
}

describe('assessment rules', () => {
  test('types 0, 1 and 2 map to TMA170, TMA312 and SPI; nothing else', () => {
    assert.equal(assessmentCode(0, NAMES), 'TMA170');
    assert.equal(assessmentCode(1, NAMES), 'TMA312');
    assert.equal(assessmentCode(2, NAMES), 'SPI');
    for (const t of [3, -1, 0.5, NaN])
      assert.equal(
        code(() => assessmentCode(t, NAMES)),
        'InvalidAssessmentType',
      );
  });

  test('private webhook addresses depend on the setting', () => {
    const req = { ...base, webhookUrl: 'http://10.0.0.5/hook' };
    assert.equal(
      code(() => checkAssessmentRequest(req, false)),
      'WebhookUrlNotAllowed',
    );
    assert.equal(checkAssessmentRequest(req, true).webhook?.url, 'http://10.0.0.5/hook');
  });

  test('DNS names pass here: they are vetted when the webhook is sent', () => {
    assert.equal(checkAssessmentRequest({ ...base, webhookUrl: 'https://hooks.example.com/x' }, false).webhook?.url, 'https://hooks.example.com/x');
  });

  test('credentials need their companions', () => {
    assert.equal(
      code(() => checkAssessmentRequest({ ...base, webhookUrl: 'https://h.example/', webhookPassword: 'p' }, false)),
      'ValidationError',
    );
    assert.equal(
      code(() => checkAssessmentRequest({ ...base, webhookUsername: 'u' }, false)),
      'ValidationError',
    );
    const ok = checkAssessmentRequest({ ...base, webhookUrl: 'https://h.example/', webhookUsername: 'u', webhookPassword: '' }, false);
    assert.deepEqual(ok.webhook, { url: 'https://h.example/', username: 'u', password: '' });
  });

  test('ReturnUrl must be absolute http(s)', () => {
    for (const u of ['/x', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
      assert.equal(
        code(() => checkAssessmentRequest({ ...base, returnUrl: u }, false)),
        'ValidationError',
        u,
      );
    }
    assert.equal(checkAssessmentRequest({ ...base, returnUrl: 'https://ats.example/r?a=1' }, false).returnUrl, 'https://ats.example/r?a=1');
  });

  test("a ReturnUrl or WebhookUrl host is a DNS name or an address: URL parsing lets , ; ' * through, and the origin goes into a header", () => {
    for (const host of ['ats.example.com,sandbox;x', 'ats.example.com;sandbox', "a'b.example", 'a*.example', 'a!b.example', 'a$b.example', 'a(b).example']) {
      assert.ok(new URL(`https://${host}/r`).hostname, `the URL parser takes ${host}`);
      assert.equal(
        code(() => checkAssessmentRequest({ ...base, returnUrl: `https://${host}/r` }, false)),
        'ValidationError',
        host,
      );
      assert.equal(
        code(() => checkAssessmentRequest({ ...base, webhookUrl: `https://${host}/r` }, true)),
        'ValidationError',
        host,
      );
    }
    for (const host of [
      'ats.example.com',
      'ATS.Example.com.',
      'xn--bcher-kva.example',
      'bücher.example',
      'my_host.example',
      '203.0.113.7',
      '[2001:db8::1]',
      'localhost:8080',
    ]) {
      assert.equal(
        code(() => checkAssessmentRequest({ ...base, returnUrl: `https://${host}/r`, webhookUrl: `https://${host}/w` }, true)),
        'no error',
        host,
      );
    }
  });

  test('each refusal names its field and rule for the caller, and its message names the field', () => {
    const refusals: [Partial<AssessmentRequest>, boolean, string, string, string][] = [
      [{ returnUrl: 'not a url' }, false, 'ValidationError', 'ReturnUrl', 'absoluteHttpUrl'],
      [{ returnUrl: 'ftp://ats.example/r' }, false, 'ValidationError', 'ReturnUrl', 'absoluteHttpUrl'],
      [{ returnUrl: 'https://a;b.example/r' }, false, 'ValidationError', 'ReturnUrl', 'hostName'],
      [{ webhookUrl: 'ftp://hooks.example/w' }, true, 'ValidationError', 'WebhookUrl', 'absoluteHttpUrl'],
      [{ webhookUsername: 'u' }, false, 'ValidationError', 'WebhookUsername', 'requiresWebhookUrl'],
      [{ webhookPassword: 'p' }, false, 'ValidationError', 'WebhookPassword', 'requiresWebhookUrl'],
      [{ webhookUrl: 'https://h.example/', webhookPassword: 'p' }, false, 'ValidationError', 'WebhookPassword', 'requiresWebhookUsername'],
      [{ webhookUrl: 'https://h.example/', webhookUsername: 'a:b' }, false, 'ValidationError', 'WebhookUsername', 'noColon'],
      [{ webhookUrl: 'https://user@h.example/' }, false, 'ValidationError', 'WebhookUrl', 'noUserInfo'],
      [{ webhookUrl: 'https://:secret@h.example/' }, false, 'ValidationError', 'WebhookUrl', 'noUserInfo'],
      [{ webhookUrl: 'https://127.0.0.1/' }, false, 'WebhookUrlNotAllowed', 'WebhookUrl', 'publicAddress'],
      [{ webhookUrl: 'https://api.localhost/' }, false, 'WebhookUrlNotAllowed', 'WebhookUrl', 'publicAddress'],
    ];
    for (const [fields, allowPrivate, errorCode, field, rule] of refusals) {
      const why = JSON.stringify(fields);
      assert.throws(
        () => checkAssessmentRequest({ ...base, ...fields }, allowPrivate),
        (e: unknown) => {
          assert.ok(e instanceof DomainError, why);
          assert.deepEqual([e.code, e.details.field, e.details.rule], [errorCode, field, rule], why);
          if (errorCode === 'ValidationError') assert.ok(e.message.includes(field), `${why}: ${e.message}`);
          return true;
        },
      );
    }
    assert.throws(
      () => assessmentCode(7, NAMES),
      (e: unknown) =>
        e instanceof DomainError && e.message.includes('AssessmentType') && e.details.field === 'AssessmentType' && String(e.details.allowed) === '0,1,2',
    );
  });

  test('a colon anywhere in WebhookUsername is refused; other characters and an empty password pass', () => {
    for (const u of [':x', 'x:', 'a:b:c'])
      assert.equal(
        code(() => checkAssessmentRequest({ ...base, webhookUrl: 'https://h.example/', webhookUsername: u }, false)),
        'ValidationError',
        u,
      );
    assert.equal(checkAssessmentRequest({ ...base, webhookUrl: 'https://h.example/', webhookUsername: 'a@b.c-d_e' }, false).webhook?.username, 'a@b.c-d_e');
  });

  test("the AssessmentUrl is the portal's domain, then /anonymous/analyse/start/ and the AnalysisId (the spec's format)", () => {
    assert.equal(assessmentUrl('https://portal.example.test', 'AbC-12_x'), 'https://portal.example.test/anonymous/analyse/start/AbC-12_x');
  });

  test("a rule's message and field name the field as the asking door calls it", () => {
    const door = { ...NAMES, webhookUrl: 'url', webhookUsername: 'user', webhookPassword: 'secret', returnUrl: 'back' };
    const refusal = (req: Parameters<typeof check>[0], allowPrivate = false) => {
      try {
        check(req, allowPrivate, door);
      } catch (e) {
        assert.ok(e instanceof DomainError);
        return { message: e.message, field: e.details.field };
      }
      assert.fail('no refusal');
    };
    assert.deepEqual(refusal({ ...base, webhookUrl: 'ftp://h.example/' }), { message: 'url must be an absolute http or https URL', field: 'url' });
    assert.deepEqual(refusal({ ...base, returnUrl: 'x' }), { message: 'back must be an absolute http or https URL', field: 'back' });
    assert.deepEqual(refusal({ ...base, webhookPassword: 'p' }), { message: 'user and secret need a url', field: 'secret' });
    const privately = refusal({ ...base, webhookUrl: 'http://10.0.0.5/hook' });
    assert.equal(privately.field, 'url');
    assert.match(privately.message, /^url must point at a public address\. /);
    assert.equal(refusal({ ...base, assessmentType: 9 }).field, 'AssessmentType');
  });
});
