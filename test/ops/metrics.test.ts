import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { freePort } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders, request } from '../helpers/http.js';
import { sampleValue, scrape, type Sample } from '../helpers/metrics.js';
import { eventually } from '../helpers/receiver.js';
import { within } from '../helpers/ticks.js';

const CANDIDATE = { method: 'POST', route: '/api/anonymous/candidate' };

suiteOnEachDatabase(
  'metrics on their own port',
  { env: { METRICS_PORT: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' }, tenant: false, receiver: true },
  ({ server, receiver }) => {
    let metricsUrl: string;
    before(async () => {
      metricsUrl = server.running.metricsUrl!;
    });

    test('the metrics listener is not the public one, and serves only GET /metrics', async () => {
      assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      assert.notEqual(new URL(metricsUrl).port, new URL(server.url).port);
      assert.equal((await request(`${server.url}/metrics`)).status, 404);
      const other = await request(metricsUrl.replace('/metrics', '/openapi.json'));
      assert.equal(other.status, 404);
      assert.equal(other.body.error.code, 'NotFound');
      const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(10_000) });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    });

    test('counters, histograms and gauges move with traffic: requests, webhooks, durable writes, KDF, assessments by status', async () => {
      const tenant = await server.tenant();
      // Warm: the KDF check and the first count happen before the baseline.
      await newAssessment(server.url, tenant);
      const before = (await scrape(metricsUrl)).samples;
      const completedBefore = sampleValue(before, 'assay_assessments', { status: 'Completed' })!;

      const a = await newAssessment(server.url, tenant, { WebhookUrl: receiver.url('/metrics-hook') });
      await completeViaForms(new FormClient(server.url), a.id);
      await receiver.waitForPath('/metrics-hook');
      const wrong = await request(`${server.url}/api/anonymous/candidate`, {
        body: {},
        headers: { ...authHeaders({ ...tenant, password: 'not-the-password' }) },
      });
      assert.equal(wrong.status, 401);
      assert.equal((await request(`${server.url}/no/such/path/${a.id}`)).status, 404);

      // The webhook's metric is counted after its outcome is recorded; the count of assessments refreshes at most every 5 s.
      const after = await eventually(
        async () => {
          const { samples } = await scrape(metricsUrl);
          const delivered = delta(before, samples, 'assay_webhook_attempts_total', { kind: 'automatic', outcome: 'delivered' });
          return delivered === 1 && sampleValue(samples, 'assay_assessments', { status: 'Completed' }) === completedBefore + 1 ? samples : undefined;
        },
        20_000,
        'the webhook and the completion in the metrics',
      );

      assert.equal(delta(before, after, 'assay_http_requests_total', { ...CANDIDATE, status: '201' }), 1);
      assert.equal(delta(before, after, 'assay_http_requests_total', { ...CANDIDATE, status: '401' }), 1);
      assert.equal(delta(before, after, 'assay_http_request_duration_seconds_count', CANDIDATE), 2);
      assert.equal(delta(before, after, 'assay_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1);
      assert.ok(!after.some((s) => Object.values(s.labels).some((v) => v.includes(a.id))), 'no AnalysisId in any label');
      assert.ok(delta(before, after, 'assay_http_requests_total', { method: 'POST', route: '/anonymous/analyse/:id/questions/:page', status: '303' })! >= 2);

      assert.equal(delta(before, after, 'assay_webhook_delivery_seconds_count', { kind: 'automatic' }), 1);
      assert.equal(delta(before, after, 'assay_webhook_request_duration_seconds_count'), 1);
      assert.ok(delta(before, after, 'assay_db_write_duration_seconds_count')! >= 3, 'candidate, assessment, completion and claim are durable writes');
      assert.ok(delta(before, after, 'assay_db_write_batch_size_sum')! >= delta(before, after, 'assay_db_write_batch_size_count')!);
      assert.equal(sampleValue(after, 'assay_kdf_queue_depth'), 0);
      assert.ok(sampleValue(after, 'assay_kdf_checks_total')! >= 2, 'the right and the wrong password were checked');
      assert.equal(sampleValue(after, 'assay_assessments', { status: 'Created' }), sampleValue(before, 'assay_assessments', { status: 'Created' })! + 1);

      assert.ok(sampleValue(after, 'process_resident_memory_bytes')! > 20e6);
      assert.ok(sampleValue(after, 'nodejs_heap_size_used_bytes')! > 1e6);
      assert.ok(sampleValue(after, 'nodejs_eventloop_lag_p99_seconds')! > 0);
    });

    test('the webhook in-flight gauge: 1 while a receiver holds its answer, 0 once it answers', async () => {
      const tenant = await server.tenant();
      let answer = () => {};
      const held = new Promise<void>((arrived) => {
        receiver.behaviour = (res) => {
          answer = () => res.writeHead(204).end();
          arrived();
        };
      });
      try {
        const a = await newAssessment(server.url, tenant, { WebhookUrl: receiver.url('/in-flight') });
        await completeViaForms(new FormClient(server.url), a.id);
        await within(held, 15_000, 'the webhook at the receiver');
        assert.equal(sampleValue((await scrape(metricsUrl)).samples, 'assay_webhook_in_flight'), 1, 'the attempt whose answer is held');
      } finally {
        receiver.behaviour = (res) => res.writeHead(204).end();
        answer();
      }
      await eventually(
        async () => (sampleValue((await scrape(metricsUrl)).samples, 'assay_webhook_in_flight') === 0 ? true : undefined),
        15_000,
        'the gauge back at 0',
      );
    });

    test('the PDF gauges: no PDF thread until the first PDF, one after it, and none waiting', async () => {
      const tenant = await server.tenant();
      const a = await newAssessment(server.url, tenant);
      await completeViaForms(new FormClient(server.url), a.id);
      const before = (await scrape(metricsUrl)).samples;
      assert.equal(sampleValue(before, 'assay_pdf_threads'), 0);
      const pdf = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?format=pdf`, {
        headers: authHeaders(tenant),
        signal: AbortSignal.timeout(20_000),
      });
      assert.equal(pdf.status, 200);
      assert.equal(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
        '%PDF-',
      );
      const after = (await scrape(metricsUrl)).samples;
      assert.equal(sampleValue(after, 'assay_pdf_threads'), 1);
      assert.equal(sampleValue(after, 'assay_pdf_queue_depth'), 0);
    });
  },
);

suiteOnEachDatabase('a metrics port in use', { on: 'first', start: false }, ({ another }) => {
  test('stops the start with EADDRINUSE, and the API port is left free for the next start', { timeout: 60_000 }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    try {
      const metricsPort = String((taken.address() as AddressInfo).port);
      await assert.rejects(another({ PORT: String(port), METRICS_PORT: metricsPort }), { code: 'EADDRINUSE' });
      const next = await another({ PORT: String(port) });
      assert.equal((await request(`${next.url}/healthz`)).status, 200);
      await next.stop();
    } finally {
      taken.close();
    }
  });
});

suiteOnEachDatabase('metrics are off unless METRICS_PORT is set', { on: 'first', tenant: false }, ({ server }) => {
  test('no metrics listener, and no /metrics on the public port', async () => {
    assert.equal(server.running.metricsUrl, undefined);
    assert.equal((await request(`${server.url}/metrics`)).status, 404);
  });
});

function delta(before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const now = sampleValue(after, name, labels);
  return now === undefined ? undefined : now - (sampleValue(before, name, labels) ?? 0);
}
