import { Client } from 'undici';

/** One request per candidate connection at a time: a browser tab, with its cookies. */
export class Browser {
  readonly #client: Client;
  readonly #cookies = new Map<string, string>();
  constructor(origin: string, timeoutMs: number) {
    this.#client = new Client(origin, { keepAliveTimeout: 60_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });
  }
  async send(
    method: 'GET' | 'POST',
    path: string,
    body?: string,
  ): Promise<{ status: number; html: string; location: string | undefined; retryAfter: string | undefined }> {
    const headers: Record<string, string> = { accept: 'text/html', 'accept-language': 'en' };
    if (this.#cookies.size) headers.cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await this.#client.request({ method, path, headers, ...(body !== undefined ? { body } : {}) });
    const setCookie = res.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const pair = line.split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const html = await res.body.text();
    const location = res.headers.location;
    const retryAfter = res.headers['retry-after'];
    return {
      status: res.statusCode,
      html,
      location: typeof location === 'string' ? location : undefined,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
    };
  }
  close(): Promise<void> {
    return this.#client.close();
  }
}

const CSRF = /name="_csrf" value="([^"]+)"/;
const ITEM = /name="(a_[A-Za-z0-9_-]+)"/g;

/** The form a candidate fills in on `path`, as the page offers it. */
export function formFor(path: string, html: string, n: number): string {
  const fields = new URLSearchParams();
  fields.append('_csrf', CSRF.exec(html)?.[1] ?? '');
  if (path.endsWith('/details')) {
    for (const [k, v] of Object.entries({ FirstName: 'Noor', Preposition: 'van', LastName: 'Dijk', Email: 'noor@example.nl' })) fields.append(k, v);
  } else if (path.endsWith('/gender')) {
    fields.append('Gender', '2');
  } else if (path.endsWith('/confirm')) {
    fields.append('nav', 'finish');
  } else if (path.includes('/questions/')) {
    let i = n;
    for (const name of new Set([...html.matchAll(ITEM)].map((m) => m[1]!))) fields.append(name, String(1 + (i++ % 5)));
    fields.append('nav', html.includes('value="finish"') ? 'finish' : 'next');
  }
  return fields.toString();
}
