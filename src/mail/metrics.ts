import { Counter } from 'prom-client';
import type { Metrics } from '../ops/metrics.js';

export type MailOutcome = 'sent' | 'retry' | 'failed' | 'cancelled';

/** Mail counted by kind and outcome, on the server's metrics registry. */
export class MailMetrics {
  readonly #messages: Counter<'kind' | 'outcome'>;

  constructor(metrics: Metrics) {
    this.#messages = new Counter({
      name: 'assay_mail_messages_total',
      help: 'Mail to candidates by kind (invitation, reminder) and outcome (sent; retry: a transient failure, tried again later; failed: refused or given up; cancelled: not sent, the assessment was over)',
      labelNames: ['kind', 'outcome'],
      registers: [metrics.registry],
    });
  }

  message(kind: string, outcome: MailOutcome): void {
    this.#messages.inc({ kind, outcome });
  }
}
