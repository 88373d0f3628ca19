import assert from 'node:assert/strict';

export interface Page {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

/**
 * A browser without JavaScript: keeps cookies, reads hidden fields, posts forms. Given several
 * base URLs (instances behind a load balancer), it sends each request to the next one.
 */
export class FormClient {
  readonly #cookies = new Map<string, string>();
  readonly #bases: string[];
  #next = 0;
  constructor(
    base: string | string[],
    readonly headers: Record<string, string> = {},
  ) {
    this.#bases = Array.isArray(base) ? base : [base];
  }

  /** The Cookie header this browser would send now. */
  cookieHeader(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async #send(path: string, init: RequestInit): Promise<Page> {
    const cookie = this.cookieHeader();
    const base = this.#bases[this.#next++ % this.#bases.length]!;
    const res = await fetch(new URL(path, base), {
      ...init,
      redirect: 'manual',
      headers: { ...this.headers, ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.#send(path, { method: 'GET', headers });
  }

  post(path: string, fields: Record<string, string | string[]>): Promise<Page> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return this.#send(path, { method: 'POST', body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  /** GETs a page and posts its form with `fields` and the page's own CSRF token. */
  async submit(path: string, fields: Record<string, string | string[]>): Promise<Page> {
    const page = await this.get(path);
    assert.equal(page.status, 200, `GET ${path}: ${page.status} ${page.html.slice(0, 200)}`);
    return this.post(path, { _csrf: csrfToken(page.html), ...fields });
  }
}

export function csrfToken(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  assert.ok(m, 'page has a CSRF token');
  return m[1]!;
}

/** The names of the radio groups on a questionnaire page, in order. */
export function itemNames(html: string): string[] {
  return [...new Set([...html.matchAll(/name="(a_[A-Za-z0-9_-]+)"/g)].map((m) => m[1]!))];
}

export function startPath(id: string): string {
  return `/anonymous/analyse/start/${id}`;
}

export interface CompleteOptions {
  answer?: (itemName: string, index: number) => string;
  details?: Record<string, string>;
  gender?: string;
  /** Runs before each questionnaire page is posted (a test can make the candidate take their time). */
  beforePost?: (path: string) => Promise<void>;
  /** Runs on the confirm step, before "finish" is posted. */
  beforeFinish?: () => Promise<void>;
}

/**
 * Takes an assessment from its start page to the end through plain form posts, as a
 * candidate without JavaScript would. Returns the final redirect (ReturnUrl or done page).
 */
export async function completeViaForms(client: FormClient, id: string, opts: CompleteOptions = {}): Promise<Page> {
  let res = await client.submit(startPath(id), {});
  let answered = 0;
  for (let guard = 0; guard < 100; guard++) {
    assert.equal(res.status, 303, `expected a redirect, got ${res.status}: ${res.html.slice(0, 300)}`);
    const location = res.location!;
    if (location.endsWith('/details')) {
      res = await client.submit(location, opts.details ?? { FirstName: 'Noor', Preposition: 'van', LastName: 'Dijk', Email: 'noor@example.nl' });
    } else if (location.endsWith('/gender')) {
      res = await client.submit(location, { Gender: opts.gender ?? '2' });
    } else if (location.endsWith('/confirm')) {
      await opts.beforeFinish?.();
      res = await client.submit(location, { nav: 'finish' });
    } else if (/\/questions\/\d+$/.test(location)) {
      const page = await client.get(location);
      assert.equal(page.status, 200);
      const fields: Record<string, string> = { _csrf: csrfToken(page.html) };
      for (const name of itemNames(page.html)) fields[name] = opts.answer?.(name, answered++) ?? String(1 + (answered++ % 5));
      fields.nav = /value="finish"/.test(page.html) ? 'finish' : 'next';
      await opts.beforePost?.(location);
      res = await client.post(location, fields);
    } else {
      return res;
    }
  }
  throw new Error('the flow did not end');
}
