import { Agent, fetch as undiciFetch } from 'undici';

const agents = new Map<string, Agent>();
/** Requests from another loopback address (127.0.0.x), to look like a different client. */
function fromAddress(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) agents.set(localAddress, (agent = new Agent({ localAddress })));
  return agent;
}

export interface Credentials {
  username: string;
  password: string;
  apiKey: string;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export function authHeaders(c: Credentials): Record<string, string> {
  return { authorization: basic(c.username, c.password), 'api-key': c.apiKey };
}

/** One HTTP request; `body` objects are sent as JSON, strings as they are. */
export async function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown; from?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (typeof init.body === 'string') body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const options = { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, redirect: 'manual' as const };
  const res = init.from ? await undiciFetch(url, { ...options, dispatcher: fromAddress(init.from) }) : await fetch(url, options);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A caller of the API with one tenant's credentials. */
export function apiClient(baseUrl: string, creds: Credentials, from?: string) {
  const at = from ? { from } : {};
  return {
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request(baseUrl + path, { method: 'POST', body, headers: { ...authHeaders(creds), ...headers }, ...at }),
    get: (path: string, headers: Record<string, string> = {}) => request(baseUrl + path, { headers: { ...authHeaders(creds), ...headers }, ...at }),
    delete: (path: string) => request(baseUrl + path, { method: 'DELETE', headers: authHeaders(creds), ...at }),
    createCandidate: (body: Record<string, unknown>) => request(baseUrl + '/api/anonymous/candidate', { body, headers: authHeaders(creds), ...at }),
    createAssessment: (body: Record<string, unknown>) => request(baseUrl + '/api/anonymous/assessment', { body, headers: authHeaders(creds), ...at }),
  };
}

let seq = 0;
export function uniqueId(prefix = 'ext'): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${++seq}`;
}

export function candidate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ExternalId: uniqueId(), Email: 'ada@example.com', FirstName: 'Ada', LastName: 'Lovelace', Preposition: '', ...overrides };
}

/** Asserts the spec's error envelope and returns its code. */
export function errorCode(reply: Reply): string {
  const e = reply.body?.error;
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.innererror !== 'object' || e.innererror === null) {
    throw new Error(`Not an error envelope (HTTP ${reply.status}): ${reply.text.slice(0, 300)}`);
  }
  return e.code;
}
