import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the gauges read at scrape time; given once the things they watch exist. */
export interface MetricSources {
  /** Password checks waiting for a KDF thread, and checks run to a verdict. */
  kdf: { readonly queued: number; readonly runs: number };
  /** PDFs waiting for a PDF thread, and the PDF threads running. */
  pdf: { readonly queued: number; readonly threads: number };
  /** Assessments per status (Expired derived from ExpiresAt), counted off the event loop. */
  assessmentsByStatus(): Promise<Array<{ status: string; count: number }>>;
  /** Webhook attempts this process has under way. */
  webhooks: { readonly activity: { inFlight: number } };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
// A table scan per scrape is the database's work too: a flood of scrapes shares one count.
const COUNT_FLOOR_MS = 5_000;
const COUNT_TIMEOUT_MS = 10_000;

/**
 * Assay's Prometheus metrics, on a registry of its own (several servers may share a process in
 * tests). Counters are cheap enough for every request; gauges are read only when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #latency: Histogram<'method' | 'route'>;
  readonly #rawErrors: Counter<'status'>;
  readonly #webhookAttempts: Counter<'kind' | 'outcome'>;
  readonly #webhookRequest: Histogram;
  readonly #webhookLag: Histogram<'kind'>;
  readonly #webhookAbandoned: Counter;
  readonly #writeSeconds: Histogram;
  readonly #writeBatch: Histogram;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.#requests = new Counter({
      name: 'assay_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'assay_http_request_duration_seconds',
      help: 'Time from a request arriving to its response being sent, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#rawErrors = new Counter({
      name: 'assay_http_unparsed_requests_total',
      help: 'Requests refused before routing (malformed, headers too large, too slow to arrive), by status',
      labelNames: ['status'],
      registers,
    });
    this.#webhookAttempts = new Counter({
      name: 'assay_webhook_attempts_total',
      help: 'Webhook attempts made, by kind (automatic, manual) and outcome (delivered, failed)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.#webhookRequest = new Histogram({
      name: 'assay_webhook_request_duration_seconds',
      help: 'Duration of each webhook attempt, connect to last byte',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#webhookLag = new Histogram({
      name: 'assay_webhook_delivery_seconds',
      help: 'From the attempt being queued (completion, or a redelivery request) to its outcome',
      labelNames: ['kind'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.#webhookAbandoned = new Counter({
      name: 'assay_webhook_abandoned_total',
      help: 'Attempts cut off by a crash and marked Unknown (never sent again by themselves)',
      registers,
    });
    this.#writeSeconds = new Histogram({
      name: 'assay_db_write_duration_seconds',
      help: 'Durable writes: from the oldest write of a commit being queued to the commit being durable (SQLite: WAL synced)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.#writeBatch = new Histogram({
      name: 'assay_db_write_batch_size',
      help: 'Writes committed together in one durable commit',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
      registers,
    });
  }

  /** Gauges that read live state at scrape time. */
  watch(sources: MetricSources): void {
    const registers = [this.registry];
    new Gauge({
      name: 'assay_kdf_queue_depth',
      help: 'Password checks waiting for a KDF thread',
      registers,
      collect() {
        this.set(sources.kdf.queued);
      },
    });
    new Counter({
      name: 'assay_kdf_checks_total',
      help: 'Password checks run to a verdict (cache misses)',
      registers,
      collect() {
        this.reset();
        this.inc(sources.kdf.runs);
      },
    });
    new Gauge({
      name: 'assay_webhook_in_flight',
      help: 'Webhook attempts this process has under way (claimed and being sent)',
      registers,
      collect() {
        this.set(sources.webhooks.activity.inFlight);
      },
    });
    new Gauge({
      name: 'assay_pdf_queue_depth',
      help: 'PDF reports waiting for a PDF thread',
      registers,
      collect() {
        this.set(sources.pdf.queued);
      },
    });
    new Gauge({
      name: 'assay_pdf_threads',
      help: "PDF threads running (they start with the first PDF, or a report page's PDF made ahead, and end after 10 idle minutes)",
      registers,
      collect() {
        this.set(sources.pdf.threads);
      },
    });
    const counts = cachedCounts(sources.assessmentsByStatus);
    new Gauge({
      name: 'assay_assessments',
      help: 'Assessments by status: Created, Started, Completed, Cancelled, and Expired (not finished before ExpiresAt). Refreshed at most every 5 s',
      labelNames: ['status'],
      registers,
      async collect() {
        const rows = await counts();
        this.reset();
        for (const status of ['Created', 'Started', 'Completed', 'Cancelled', 'Expired']) this.set({ status }, 0);
        for (const { status, count } of rows) this.set({ status }, count);
      },
    });
  }

  request(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method: METHODS.has(method) ? method : 'OTHER', route: route ?? 'unmatched' };
    this.#requests.inc({ ...labels, status: String(status) });
    this.#latency.observe(labels, seconds);
  }

  unparsedRequest(status: number): void {
    this.#rawErrors.inc({ status: String(status) });
  }

  webhookAttempt(kind: string, delivered: boolean, requestSeconds: number, sinceQueuedSeconds: number): void {
    this.#webhookAttempts.inc({ kind, outcome: delivered ? 'delivered' : 'failed' });
    this.#webhookRequest.observe(requestSeconds);
    this.#webhookLag.observe({ kind }, sinceQueuedSeconds);
  }

  webhooksAbandoned(count: number): void {
    this.#webhookAbandoned.inc(count);
  }

  durableWrite(batchSize: number, seconds: number): void {
    this.#writeBatch.observe(batchSize);
    this.#writeSeconds.observe(seconds);
  }
}

/** One count at a time, at most one per COUNT_FLOOR_MS; a count that fails or hangs leaves the last one standing. */
function cachedCounts(read: () => Promise<Array<{ status: string; count: number }>>) {
  let last: Array<{ status: string; count: number }> = [];
  let at = 0;
  let running: Promise<void> | undefined;
  return async () => {
    if (Date.now() - at >= COUNT_FLOOR_MS) {
      running ??= withTimeout(read(), COUNT_TIMEOUT_MS)
        .then((rows) => {
          last = rows;
        })
        .catch(() => {})
        .finally(() => {
          at = Date.now();
          running = undefined;
        });
      await running;
    }
    return last;
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
