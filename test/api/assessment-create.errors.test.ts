import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode, uniqueId } from '../helpers/http.js';

suiteOnEachDatabase('POST /api/anonymous/assessment, errors', { tenant: false }, ({ server }) => {
  let api: ReturnType<typeof apiClient>;
  let externalId: string;
  before(async () => {
    api = apiClient(server.url, await server.tenant());
    const body = candidate();
    await api.createCandidate(body);
    externalId = String(body.ExternalId);
  });

  async function rejects(body: Record<string, unknown>, code: string, field: string) {
    const res = await api.createAssessment(body);
    assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${res.text}`);
    assert.equal(errorCode(res), code, JSON.stringify(body));
    assert.equal(res.body.error.innererror.field, field);
    return res;
  }

  test('NoCandidateFound for an unknown ExternalId', async () => {
    const res = await rejects({ ExternalId: uniqueId('ghost'), AssessmentType: 0 }, 'NoCandidateFound', 'ExternalId');
    assert.match(res.body.error.message, /no candidate found/i);
  });

  test('InvalidAssessmentType for anything but the integers 0, 1 and 2', async () => {
    for (const AssessmentType of [-1, 3, 0.5, '0', '1', '2', null, true, 170]) {
      const res = await rejects({ ExternalId: externalId, AssessmentType }, 'InvalidAssessmentType', 'AssessmentType');
      assert.match(res.body.error.message, /0 \(TMA170\), 1 \(TMA312\) or 2 \(SPI\)/);
    }
    await rejects({ ExternalId: externalId }, 'InvalidAssessmentType', 'AssessmentType');
  });

  test('ExternalId is required and must be a string', async () => {
    await rejects({ AssessmentType: 0 }, 'ValidationError', 'ExternalId');
    await rejects({ ExternalId: 7, AssessmentType: 0 }, 'ValidationError', 'ExternalId');
  });

  test('ReturnUrl and WebhookUrl must be absolute http(s) URLs', async () => {
    for (const url of ['/relative', 'example.com/x', 'ftp://example.com/x', 'javascript:alert(1)', 'mailto:a@b.c', 'http://', '']) {
      await rejects({ ExternalId: externalId, AssessmentType: 0, ReturnUrl: url }, 'ValidationError', 'ReturnUrl');
      await rejects({ ExternalId: externalId, AssessmentType: 0, WebhookUrl: url }, 'ValidationError', 'WebhookUrl');
    }
  });

  test('a ReturnUrl or WebhookUrl whose host is not a DNS name or an address is a 400 naming the field and the rule', async () => {
    for (const url of ['https://ats.example.com,sandbox;sandbox;x/', "https://a'b.example/r"]) {
      for (const field of ['ReturnUrl', 'WebhookUrl']) {
        const res = await rejects({ ExternalId: externalId, AssessmentType: 0, [field]: url }, 'ValidationError', field);
        assert.equal(res.body.error.innererror.rule, 'hostName', url);
      }
    }
  });

  test('a WebhookUrl naming a non-public address literally is refused', async () => {
    const hosts = [
      '127.0.0.1',
      '127.1.2.3',
      '0x7f.1',
      '2130706433',
      '10.0.0.8',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '[::1]',
      '[::]',
      '[fc00::1]',
      '[fd12:3456::1]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:10.0.0.1]',
      '[64:ff9b::a00:1]',
      '[::127.0.0.1]',
      '[::7f00:1]',
      '[::a9fe:a9fe]',
      'localhost',
      'api.localhost',
    ];
    for (const host of hosts) {
      const res = await rejects({ ExternalId: externalId, AssessmentType: 0, WebhookUrl: `http://${host}:8080/hook` }, 'WebhookUrlNotAllowed', 'WebhookUrl');
      assert.match(res.body.error.message, /public address/);
    }
  });

  test('the refusal names the setting for receivers on your own machine, and says it is for development', async () => {
    const res = await rejects({ ExternalId: externalId, AssessmentType: 0, WebhookUrl: 'http://127.0.0.1:4000/' }, 'WebhookUrlNotAllowed', 'WebhookUrl');
    assert.match(res.body.error.message, /WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/);
    assert.match(res.body.error.message, /developing.*not for production/);
  });

  test('WebhookPassword without WebhookUsername is refused, and credentials without a WebhookUrl', async () => {
    await rejects(
      { ExternalId: externalId, AssessmentType: 0, WebhookUrl: 'https://hooks.example.com/', WebhookPassword: 'pw' },
      'ValidationError',
      'WebhookPassword',
    );
    await rejects({ ExternalId: externalId, AssessmentType: 0, WebhookUsername: 'u', WebhookPassword: 'pw' }, 'ValidationError', 'WebhookUsername');
    await rejects(
      { ExternalId: externalId, AssessmentType: 0, WebhookUrl: 'https://hooks.example.com/', WebhookUsername: 'a:b' },
      'ValidationError',
      'WebhookUsername',
    );
    await rejects({ ExternalId: externalId, AssessmentType: 0, WebhookUrl: 'https://u:p@hooks.example.com/' }, 'ValidationError', 'WebhookUrl');
  });

  test('over-long URLs are refused', async () => {
    await rejects({ ExternalId: externalId, AssessmentType: 0, ReturnUrl: `https://example.com/${'a'.repeat(2100)}` }, 'ValidationError', 'ReturnUrl');
  });
});

suiteOnEachDatabase(
  'POST /api/anonymous/assessment with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true',
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, tenant: false },
  ({ server }) => {
    test('private and loopback webhook addresses are accepted', async () => {
      const api = apiClient(server.url, await server.tenant());
      const body = candidate();
      await api.createCandidate(body);
      for (const host of ['127.0.0.1', '10.1.2.3', '[::1]', 'localhost']) {
        const res = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 1, WebhookUrl: `http://${host}:9000/hook` });
        assert.equal(res.status, 201, `${host}: ${res.text}`);
      }
    });
  },
);
