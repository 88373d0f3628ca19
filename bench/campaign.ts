import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Browser, formFor } from './campaign-browser.js';
import { percentile } from './stats.js';

/** What creates the campaign's candidates: the API, as an applicant-tracking system would. */
export interface Api {
  createCandidate(body: object): Promise<{ status: number }>;
  createAssessment(body: object): Promise<{ status: number; body: any }>;
  get(path: string): Promise<{ status: number; body: any }>;
}

export interface CampaignResult {
  candidates: number;
  finished: number;
  posts: number;
  gets: number;
  seconds: number;
  postsPerSecond: number;
  post: { p50: number; p99: number };
  get: { p50: number; p99: number };
  /** Each candidate's first page: it waits for the server to accept a new connection. */
  first: { p50: number; p99: number };
  /** Answers other than the expected 200 (GET) and 303 (POST), and failed requests, by kind. */
  errors: Record<string, number>;
  errorCount: number;
  /** 503s that came without Retry-After (backpressure must always say when to come back). */
  shedWithoutRetryAfter: number;
  timeouts: number;
  /**
   * Webhook latency two ways: from the moment the candidate sent the finishing post (so it
   * includes that post's wait in the server's queue), and from the completion the server stamped
   * (CompletedAt, the same machine's clock) to receipt.
   */
  webhooks: { expected: number; received: number; p50: number; p99: number; fromCompletion: { p50: number; p99: number } };
  /** A typical question-page post, for the ceiling to read the same bytes, and the page it came from. */
  samplePostBody: string;
  samplePage: string;
  /** AnalysisIds of the assessments completed. */
  completed: string[];
}

/** Milliseconds to one decimal, as the rows show them. */
const round = (x: number) => Math.round(x * 10) / 10;

/** A local webhook receiver that notes when each assessment's completion arrived. */
async function receiver(arrived: Map<string, { at: number; wall: number }>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const at = { at: performance.now(), wall: Date.now() };
      try {
        arrived.set((JSON.parse(Buffer.concat(chunks).toString()) as { Analysis_Id: string }).Analysis_Id, at);
      } catch {
        /* not a completion: ignored */
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** Receipt minus the CompletedAt the API reports, per webhook received; 20 lookups at a time. */
async function sinceCompletion(api: Api, arrived: Map<string, { wall: number }>): Promise<number[]> {
  const entries = [...arrived];
  const out: number[] = [];
  const worker = async () => {
    for (let e = entries.pop(); e; e = entries.pop()) {
      const r = await api.get(`/api/anonymous/assessment/${e[0]}`);
      const completedAt = r.status === 200 ? Date.parse(r.body?.Data?.CompletedAt) : NaN;
      if (!Number.isFinite(completedAt)) throw new Error(`no CompletedAt for a delivered webhook: HTTP ${r.status}`);
      out.push(e[1].wall - completedAt);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return out;
}

/** Creates `count` candidates with a TMA170 assessment each, `concurrency` at a time; returns the AnalysisIds. */
async function register(api: Api, count: number, tag: string, hook: string): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < count; n = next++) {
      const ExternalId = `campaign-${tag}-${n}`;
      const c = await api.createCandidate({ ExternalId, Email: 'noor@example.nl', FirstName: 'Noor', LastName: 'Dijk', Preposition: 'van', Gender: 2 });
      if (c.status !== 201) throw new Error(`create candidate: ${c.status}`);
      const a = await api.createAssessment({ ExternalId, AssessmentType: 0, WebhookUrl: hook });
      if (a.status !== 201) throw new Error(`create assessment: ${a.status}`);
      ids[n] = a.body.Data.AnalysisId as string;
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return ids;
}

/**
 * `candidates` simulated candidates take TMA170 at once through the portal's plain forms, as a
 * browser without JavaScript does: GET each page, POST it with the CSRF token and cookie, follow
 * the 303; the last post confirms, and the webhook goes to a receiver here. A 503 is counted
 * and, like a patient person, retried after its Retry-After. Nothing waits past `deadlineMs`.
 */
export async function campaign(
  baseUrl: string,
  api: Api,
  opts: { candidates: number; tag: string; deadlineMs: number; timeoutMs?: number },
): Promise<CampaignResult> {
  const arrived = new Map<string, { at: number; wall: number }>();
  const hook = await receiver(arrived);
  const ids = await register(api, opts.candidates, opts.tag, hook.url);
  const postMs: number[] = [];
  const getMs: number[] = [];
  const firstMs: number[] = [];
  const errors: Record<string, number> = {};
  const sent = new Map<string, number>();
  let shedWithoutRetryAfter = 0;
  let timeouts = 0;
  const completed: string[] = [];
  let samplePostBody = '';
  let samplePage = '';
  const deadline = performance.now() + opts.deadlineMs;
  const error = (kind: string) => (errors[kind] = (errors[kind] ?? 0) + 1);

  const take = async (id: string, n: number) => {
    const browser = new Browser(baseUrl, opts.timeoutMs ?? 30_000);
    let path = `/anonymous/analyse/start/${id}`;
    let step = 0;
    try {
      for (; step < 60 && performance.now() < deadline; step++) {
        const t0 = performance.now();
        const page = await browser.send('GET', path);
        getMs.push(performance.now() - t0);
        if (step === 0) firstMs.push(performance.now() - t0);
        if (page.status !== 200) {
          error(`GET ${page.status}`);
          if (page.status === 503 && !page.retryAfter) shedWithoutRetryAfter++;
          await new Promise((r) => setTimeout(r, 1000 * Number(page.retryAfter ?? 1)));
          continue;
        }
        const body = formFor(path, page.html, n);
        if (path.endsWith('/questions/1')) [samplePostBody, samplePage] = [body, page.html];
        const t1 = performance.now();
        if (path.endsWith('/confirm')) sent.set(id, t1);
        const res = await browser.send('POST', path, body);
        postMs.push(performance.now() - t1);
        if (res.status !== 303 || !res.location) {
          error(`POST ${res.status}`);
          if (res.status === 503 && !res.retryAfter) shedWithoutRetryAfter++;
          await new Promise((r) => setTimeout(r, 1000 * Number(res.retryAfter ?? 1)));
          continue;
        }
        if (!res.location.startsWith('/anonymous/analyse/') || res.location.endsWith('/done') || res.location.endsWith('/feedback')) {
          completed.push(id);
          return;
        }
        path = res.location;
      }
      error('unfinished');
    } catch (e) {
      const code = (e as { code?: string }).code ?? 'failed';
      if (/TIMEOUT/.test(code)) timeouts++;
      // A stall on the first request is the connection's (the listen queue), not a page's.
      error(`${code} ${step === 0 ? 'on the first request' : 'on a later request'}`);
    } finally {
      await browser.close().catch(() => {});
    }
  };

  const started = performance.now();
  await Promise.all(ids.map((id, n) => take(id, n)));
  const seconds = (performance.now() - started) / 1000;

  // Every completion's webhook, or the deadline.
  while (arrived.size < sent.size && performance.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 20));
  hook.server.close();
  const webhookMs = [...sent].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)!.at - at] : []));
  const fromCompletionMs = await sinceCompletion(api, arrived);
  const stats = (xs: number[]) => ({ p50: round(percentile(xs, 50)), p99: round(percentile(xs, 99)) });
  return {
    candidates: opts.candidates,
    finished: completed.length,
    posts: postMs.length,
    gets: getMs.length,
    seconds: round(seconds),
    postsPerSecond: Math.round(postMs.length / seconds),
    post: stats(postMs),
    get: stats(getMs),
    first: stats(firstMs),
    errors,
    errorCount: Object.values(errors).reduce((a, b) => a + b, 0),
    shedWithoutRetryAfter,
    timeouts,
    webhooks: { expected: sent.size, received: webhookMs.length, ...stats(webhookMs), fromCompletion: stats(fromCompletionMs) },
    samplePostBody,
    samplePage,
    completed,
  };
}

/**
 * The ceiling for the campaign: `clients` keep-alive connections each POST `body` (a real page's
 * form) `postsPerClient` times to the bare server, which reads it and answers 303. The latencies
 * are of each connection's posts after its first.
 *
 * With `pages` instead of `body`, each post is preceded by a GET of the bare server's stored page
 * (a real questionnaire page, PUT there first), from which the form is made as a candidate's is: the
 * campaign's whole traffic, and the load generator's whole work, against a server that does
 * nothing else. `clientCpuUsPerPost` is the load generator's CPU per post, in µs.
 */
export async function formCeiling(
  bareUrl: string,
  opts: { clients: number; postsPerClient: number; timeoutMs?: number } & ({ body: string } | { pages: true }),
): Promise<{ postsPerSecond: number; p50: number; p99: number; errors: number; clientCpuUsPerPost: number }> {
  const latencies: number[] = [];
  let posts = 0;
  let errors = 0;
  const one = async (n: number) => {
    const browser = new Browser(bareUrl, opts.timeoutMs ?? 30_000);
    try {
      for (let i = 0; i < opts.postsPerClient; i++) {
        let body: string;
        if ('body' in opts) body = opts.body;
        else {
          const page = await browser.send('GET', '/page');
          if (page.status !== 200) errors++;
          body = formFor('/questions/2', page.html, n + i);
        }
        const t = performance.now();
        const res = await browser.send('POST', '/form', body);
        // A connection's first request also waits to be connected and accepted; a candidate's
        // first is a GET, timed apart, so the posts compared are the later ones.
        if (i > 0) latencies.push(performance.now() - t);
        posts++;
        if (res.status !== 303) errors++;
      }
    } catch {
      errors++;
    } finally {
      await browser.close().catch(() => {});
    }
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.clients }, (_, n) => one(n)));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    postsPerSecond: Math.round(posts / seconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    errors,
    clientCpuUsPerPost: Math.round((used.user + used.system) / Math.max(1, posts)),
  };
}
