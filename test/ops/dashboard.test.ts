import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { families, scrape } from '../helpers/metrics.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

const DASHBOARD = join(ROOT, 'docs', 'grafana', 'assay-dashboard.json');

/** Every metric name in the dashboard's queries (and template variables). */
function referencedMetrics(): Set<string> {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
  const queries: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'expr' || key === 'definition') && typeof value === 'string') queries.push(value);
        else walk(value);
      }
    }
  };
  walk(dashboard);
  return new Set(queries.flatMap((q) => [...q.matchAll(/\b(?:assay|nodejs|process)_[a-z0-9_]+/g)].map((m) => m[0])));
}

suiteOnEachDatabase('the example Grafana dashboard (docs/grafana)', { on: 'first', env: { METRICS_PORT: '0' }, tenant: false }, ({ server }) => {
  test('references only metrics a running server exposes, and covers each area the README lists', async () => {
    const { text } = await scrape(server.running.metricsUrl!);
    const exposed = families(text);
    const histograms = new Set([...text.matchAll(/^# TYPE (\S+) histogram$/gm)].map((m) => m[1]!));
    const referenced = referencedMetrics();
    const missing = [...referenced].filter((name) => {
      if (exposed.has(name)) return false;
      const family = name.replace(/_(bucket|sum|count)$/, '');
      return !(family !== name && histograms.has(family));
    });
    assert.deepEqual(missing, [], 'metrics the dashboard queries but the server does not expose');
    for (const area of [
      'assay_http_requests_total',
      'assay_http_request_duration_seconds_bucket',
      'assay_webhook_attempts_total',
      'assay_webhook_delivery_seconds_bucket',
      'assay_db_write_duration_seconds_bucket',
      'assay_db_write_batch_size_sum',
      'assay_kdf_queue_depth',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'process_resident_memory_bytes',
      'assay_assessments',
    ]) {
      assert.ok(referenced.has(area), `the dashboard shows ${area}`);
    }
  });
});
