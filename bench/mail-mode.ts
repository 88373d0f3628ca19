import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { SMTPServer } from 'smtp-server';
import { apiClient, authHeaders } from '../test/helpers/http.js';
import { runCliJson, startAssay } from './processes.js';
import { percentile } from './stats.js';

export interface MailSummary {
  invited: number;
  delivered: number;
  /** From the burst's first request to the last message at the SMTP server, s; and messages a second over it. */
  seconds: number;
  perSecond: number;
  /** The burst's own create-assessment calls (each queues an invitation), ms. */
  burst: { p50: number; p99: number; bad: number };
  /** Other create-assessment calls while the outbox drains, 10 connections, ms. */
  during: { p50: number; p99: number; requests: number; bad: number };
}

/** An SMTP server in this process (no TLS, as a relay on the same host) that counts what it takes. */
async function sink(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        count += 1;
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, count: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * `n` candidates exist; then `n` create-assessment calls with SendInvitation at 50 connections
 * (the burst), then create-assessment without mail at 10 connections until the SMTP server holds
 * `n` messages or `deadlineS` passes.
 */
export async function mailMode(env: Record<string, string>, options: { invitations: number; deadlineS: number }): Promise<MailSummary> {
  const smtp = await sink();
  // One tenant's burst is the subject: its cap per minute is lifted, or most of the burst would be 429s.
  const mailEnv = { ...env, SMTP_URL: smtp.url, SMTP_REQUIRE_TLS: 'false', MAIL_FROM: 'assessments@bench.test', MAIL_PER_TENANT_PER_MINUTE: '1000000' };
  const assay = await startAssay(mailEnv);
  try {
    const t = runCliJson(['tenant', 'create', '--name', 'mail-bench', '--portal-domain', 'http://127.0.0.1', '--json'], mailEnv);
    const creds = { username: t.username!, password: t.password!, apiKey: t.apiKey! };
    const api = apiClient(assay.url, creds);
    const ids = Array.from({ length: options.invitations }, (_, i) => `mail-bench-${i}`);
    for (let i = 0; i < ids.length; i += 50) {
      await Promise.all(
        ids.slice(i, i + 50).map(async (id, j) => {
          const r = await api.createCandidate({ ExternalId: id, Email: `c${i + j}@bench.test`, FirstName: 'Ada', LastName: 'Lovelace', Preposition: '' });
          if (r.status !== 201) throw new Error(`create-candidate ${r.status}: ${r.text}`);
        }),
      );
    }
    const headers = { ...authHeaders(creds), 'content-type': 'application/json' };
    const url = `${assay.url}/api/anonymous/assessment`;
    let next = 0;
    const started = Date.now();
    const burst = await autocannon({
      url,
      method: 'POST',
      headers,
      connections: Math.min(50, options.invitations),
      amount: options.invitations,
      requests: [
        { setupRequest: (req) => ({ ...req, body: JSON.stringify({ ExternalId: ids[next++ % ids.length], AssessmentType: 0, SendInvitation: true }) }) },
      ],
    });
    // Responsiveness while the outbox drains: one probe run after another until every message is in.
    const latencies: number[] = [];
    let requests = 0;
    let bad = 0;
    const deadline = started + options.deadlineS * 1000;
    while (smtp.count() < options.invitations && Date.now() < deadline) {
      const r = await new Promise<autocannon.Result>((resolve, reject) => {
        const probe = autocannon(
          { url, method: 'POST', headers, connections: 10, duration: 1, body: JSON.stringify({ ExternalId: ids[0], AssessmentType: 0 }) },
          (err, result) => (err ? reject(err) : resolve(result)),
        );
        probe.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
      });
      requests += r.requests.total;
      bad += r.errors + r.timeouts + r.non2xx;
    }
    while (smtp.count() < options.invitations && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const seconds = (Date.now() - started) / 1000;
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      invited: options.invitations,
      delivered: smtp.count(),
      seconds: round(seconds),
      perSecond: Math.round(smtp.count() / seconds),
      burst: { p50: burst.latency.p50, p99: burst.latency.p99, bad: burst.errors + burst.timeouts + burst.non2xx },
      during: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), requests, bad },
    };
  } finally {
    await assay.stop();
    await smtp.close();
  }
}

/** The run's row in bench/RESULTS.md, under `<!-- mail -->`. */
export function mailRow(s: MailSummary, pg: boolean): Array<string | number> {
  return [
    new Date().toISOString().slice(0, 10),
    `${cpus().length} cores, Node ${process.versions.node}`,
    `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
    pg ? 'PostgreSQL' : 'SQLite',
    `${s.delivered} / ${s.invited}`,
    s.seconds,
    s.perSecond,
    `${s.burst.p50} / ${s.burst.p99}`,
    `${s.during.p50} / ${s.during.p99} (${s.during.requests})`,
    s.burst.bad + s.during.bad,
  ];
}
