import { readFileSync } from 'node:fs';
import { Agent, request as undiciRequest } from 'undici';
import { authHeaders, candidate, type Credentials } from './http.js';

export interface LoadResult {
  acknowledgedCandidates: string[];
  acknowledgedAssessments: string[];
  statuses: Map<number, number>;
  /** Failures other than "connection refused" (after the server stopped listening). */
  cutOff: string[];
  refused: number;
  connectionClose: number;
}

/**
 * Keeps `workers` keep-alive clients creating candidates and assessments until stopped.
 * Records what was acknowledged (201) and how every other request ended. With `leaveOnClose`,
 * workers stop once any response said `Connection: close`, as clients behind a load balancer do.
 */
export function writeLoad(baseUrl: string, creds: Credentials, workers = 8, options: { leaveOnClose?: boolean } = {}) {
  const result: LoadResult = { acknowledgedCandidates: [], acknowledgedAssessments: [], statuses: new Map(), cutOff: [], refused: 0, connectionClose: 0 };
  let running = true;
  const headers = { ...authHeaders(creds), 'content-type': 'application/json' };
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: workers });
  let n = 0;

  async function one(path: string, body: Record<string, unknown>): Promise<{ status: number; body: any } | undefined> {
    try {
      const res = await undiciRequest(baseUrl + path, { method: 'POST', headers, body: JSON.stringify(body), dispatcher: agent });
      const text = await res.body.text();
      result.statuses.set(res.statusCode, (result.statuses.get(res.statusCode) ?? 0) + 1);
      if (res.headers.connection === 'close') result.connectionClose++;
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      if (code === 'ECONNREFUSED') result.refused++;
      else result.cutOff.push(String(code));
      await new Promise((r) => setTimeout(r, 20));
      return undefined;
    }
  }

  async function worker(w: number): Promise<void> {
    const before = () => result.connectionClose;
    while (running) {
      // A well-behaved client (or load balancer) told "Connection: close" during a drain goes elsewhere.
      if (options.leaveOnClose && before() > 0) return;
      const externalId = `load-${process.pid}-${w}-${++n}`;
      const c = await one('/api/anonymous/candidate', candidate({ ExternalId: externalId }));
      if (c?.status !== 201) continue;
      result.acknowledgedCandidates.push(externalId);
      const a = await one('/api/anonymous/assessment', { ExternalId: externalId, AssessmentType: n % 2 });
      if (a?.status === 201) result.acknowledgedAssessments.push(a.body.Data.AnalysisId);
    }
  }

  const done = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return {
    result,
    async stop(): Promise<LoadResult> {
      running = false;
      await done;
      await agent.close();
      return result;
    },
  };
}

export interface Storm {
  statuses: Map<number, number>;
  errors: string[];
  /** Which requests (by index) were answered 201. */
  created: number[];
}

/** Sends `count` requests at once, spread over the agents (one per client address), and tallies how each ended. */
export async function storm(agents: Agent[], count: number, url: string, body: (i: number) => string, headers: Record<string, string>): Promise<Storm> {
  const result: Storm = { statuses: new Map(), errors: [], created: [] };
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      try {
        const res = await undiciRequest(url, {
          method: 'POST',
          body: body(i),
          headers,
          dispatcher: agents[i % agents.length],
          headersTimeout: 120_000,
          bodyTimeout: 120_000,
        });
        await res.body.dump();
        result.statuses.set(res.statusCode, (result.statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode === 201) result.created.push(i);
      } catch (error) {
        result.errors.push(String((error as { code?: string }).code ?? (error as Error).message));
      }
    }),
  );
  return result;
}

/** VmHWM of the process, in MB; 0 once it is gone (the exit check then says why). */
export function peakRssMb(pid: number): number {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}
