import { randomInt } from 'node:crypto';
import type { Command } from 'commander';
import { isPortalPath, isPortalStartPath, portalStartPath } from '../domain/portal-paths.js';
import { PORTAL_WALK_HEADER } from '../domain/portal-walk.js';
import { CliError } from './shared.js';

export type AnswerMode = 'random' | 'midpoint';

/** Far more pages than the longest questionnaire has: a portal that never ends is an error, not a hang. */
const MAX_STEPS = 500;
/** How often a page a busy server sheds is asked for before the walk gives up. */
const BUSY_ATTEMPTS = 5;
/** What the details page is given when the portal asks the candidate to update them. */
const DETAILS = { FirstName: 'Portal', Preposition: '', LastName: 'Walk', Email: 'portal-walk@example.com' };

interface Page {
  url: URL;
  status: number;
  location: string | null;
  body: string;
  refused: boolean;
  retryAfter: string | null;
}

export interface Form {
  action: string;
  hidden: Record<string, string>;
  /** Each radio group's name and its values, in page order. */
  radios: Map<string, string[]>;
  texts: string[];
  /** The submit buttons, the primary first (as the portal renders them). */
  buttons: Array<{ name?: string; value?: string }>;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]!) : undefined;
};
const textOf = (html: string, tag: string) => {
  const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`).exec(html);
  return m
    ? decode(
        m[1]!
          .replace(/<[^>]+>/g, '')
          .replace(/\s+/g, ' ')
          .trim(),
      )
    : '';
};

/** The first form a page posts, read as a browser reads it: its action, fields and buttons. */
export function parseForm(html: string): Form | undefined {
  const m = /<form\b([^>]*)>([\s\S]*?)<\/form>/.exec(html);
  if (!m || attr(m[1]!, 'method') !== 'post') return undefined;
  const form: Form = { action: attr(m[1]!, 'action') ?? '', hidden: {}, radios: new Map(), texts: [], buttons: [] };
  for (const [tag] of m[2]!.matchAll(/<(input|button)\b[^>]*>/g)) {
    const name = attr(tag, 'name');
    const type = attr(tag, 'type');
    if (tag.startsWith('<button')) form.buttons.push({ ...(name ? { name } : {}), ...(attr(tag, 'value') ? { value: attr(tag, 'value') } : {}) });
    else if (!name) continue;
    else if (type === 'hidden') form.hidden[name] = attr(tag, 'value') ?? '';
    else if (type === 'radio') form.radios.set(name, [...(form.radios.get(name) ?? []), attr(tag, 'value') ?? '']);
    else form.texts.push(name);
  }
  return form;
}

/** The answer a walk gives an item: any of its options, or the middle one (the lower of two middles). */
export function choose(values: string[], mode: AnswerMode): string {
  const sorted = [...values].sort((a, b) => Number(a) - Number(b));
  return mode === 'midpoint' ? sorted[Math.floor((sorted.length - 1) / 2)]! : sorted[randomInt(sorted.length)]!;
}

/** A browser without JavaScript on one origin: keeps its cookies and says, as browsers do, where a post comes from. */
class Browser {
  readonly #cookies = new Map<string, string>();
  constructor(readonly origin: string) {}

  /** A page, asked again after the wait a busy server names (503 with Retry-After), a few times. */
  async send(url: URL, form?: URLSearchParams): Promise<Page> {
    for (let attempt = 1; ; attempt++) {
      const page = await this.#once(url, form);
      const wait = Number(page.retryAfter);
      if (page.status !== 503 || !(wait >= 0 && wait <= 10) || attempt === BUSY_ATTEMPTS) return page;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
    }
  }

  async #once(url: URL, form?: URLSearchParams): Promise<Page> {
    const headers: Record<string, string> = { 'accept-language': 'en', 'user-agent': 'assay-portal-walk', [PORTAL_WALK_HEADER]: '1' };
    if (this.#cookies.size) headers.cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin, 'sec-fetch-site': 'same-origin' });
    let res: Response;
    try {
      res = await fetch(url, { method: form ? 'POST' : 'GET', headers, redirect: 'manual', ...(form ? { body: form.toString() } : {}) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`Cannot reach ${this.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim()];
      if (/max-age=0\b/i.test(line) || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return {
      url,
      status: res.status,
      location: res.headers.get('location'),
      body: await res.text(),
      refused: res.headers.get(PORTAL_WALK_HEADER) === 'refused',
      retryAfter: res.headers.get('retry-after'),
    };
  }
}

/** The one line a page the walk cannot go on from is told in. */
function problem(page: Page): CliError {
  if (page.refused) return new CliError(page.body.trim());
  const form = parseForm(page.body);
  if (page.status === 403 && form?.action.endsWith('/code')) {
    return new CliError("This assessment was started in another browser: only that browser, or one given the candidate's personal code, can go on with it");
  }
  const lead = textOf(page.body, 'p');
  return new CliError(`${page.url.href}: ${page.status} ${textOf(page.body, 'h1') || page.body.slice(0, 200).trim()}${lead ? `: ${lead}` : ''}`);
}

/** The fields a walk posts on a page's form, and the line it prints for it. */
function fill(form: Form, mode: AnswerMode): { fields: URLSearchParams; did: string } {
  const fields = new URLSearchParams(form.hidden);
  const items = [...form.radios.keys()].filter((n) => n.startsWith('a_'));
  for (const name of items) fields.set(name, choose(form.radios.get(name)!, mode));
  let did = items.length ? `${items.length} answered` : 'continued';
  if (form.radios.has('Gender')) {
    fields.set('Gender', '0');
    did = 'prefer not to say';
  }
  if (form.texts.length) {
    for (const name of form.texts) fields.set(name, DETAILS[name as keyof typeof DETAILS] ?? '');
    did = `details given as ${DETAILS.FirstName} ${DETAILS.LastName} <${DETAILS.Email}>`;
  }
  const button = form.buttons[0];
  if (button?.name && button.value !== undefined) fields.set(button.name, button.value);
  if (button?.value === 'finish' && !items.length) did = 'finished';
  return { fields, did };
}

/** Checks the AssessmentUrl before anything is sent. */
export function startUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`"${raw}" is not a URL: give the AssessmentUrl, http(s)://…${portalStartPath('<AnalysisId>')}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isPortalStartPath(url.pathname)) {
    throw new CliError(`${url.href} is not an AssessmentUrl: expected http(s)://…${portalStartPath('<AnalysisId>')}`);
  }
  return url;
}

/**
 * Takes an assessment from its start page to the end through the portal's forms over HTTP, as a
 * candidate's browser without JavaScript would; `say` gets one line a page. Returns where the
 * portal sent the candidate at the end.
 */
export async function walk(raw: string, mode: AnswerMode, say: (line: string) => void): Promise<{ url: string; returnUrl: boolean }> {
  const start = startUrl(raw);
  const browser = new Browser(start.origin);
  let page = await browser.send(start);
  for (let step = 0; step < MAX_STEPS; step++) {
    if (page.status >= 300 && page.status < 400 && page.location) {
      const next = new URL(page.location, page.url);
      // A redirect out of the portal is where the candidate is sent on: the ReturnUrl.
      if (next.origin !== start.origin || !isPortalPath(next.pathname)) return { url: next.href, returnUrl: true };
      page = await browser.send(next);
      continue;
    }
    if (page.status !== 200) throw problem(page);
    const form = parseForm(page.body);
    const title = textOf(page.body, 'h1');
    if (page.url.pathname.endsWith('/feedback')) {
      // The release question is the candidate's own decision: a walk leaves it open and follows the page's last link on.
      const main = page.body.slice(page.body.indexOf('<main'), page.body.indexOf('</main>'));
      const next = [...main.matchAll(/<a\b[^>]*href="([^"]+)"/g)].at(-1)?.[1];
      if (!next) throw problem(page);
      say(`${title}: shown; any question about sharing the results is left to the candidate`);
      page = { ...page, status: 303, location: decode(next) };
      continue;
    }
    if (!form) {
      // A page without a form at the start: the assessment was finished before.
      if (step === 0) throw new CliError(`${start.href}: ${title}: ${textOf(page.body, 'p')}`);
      say(title);
      return { url: page.url.href, returnUrl: false };
    }
    const { fields, did } = fill(form, mode);
    say(`${title}: ${did}`);
    page = await browser.send(new URL(form.action, page.url), fields);
  }
  throw new CliError(`The portal did not reach its end within ${MAX_STEPS} pages`);
}

export function portalWalkCommand(portal: Command): void {
  portal
    .command('walk')
    .description(
      "fill in an assessment through the portal's forms over HTTP, as a browser without JavaScript would: for trying Assay and smoke-testing a deployment (the server allows it for the demo tenant, or with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)",
    )
    .argument('<AssessmentUrl>', 'the AssessmentUrl the API returned')
    .option('--answers <mode>', 'random or midpoint', 'random')
    .action(async (url: string, opts: { answers: string }) => {
      if (opts.answers !== 'random' && opts.answers !== 'midpoint') throw new CliError(`--answers must be random or midpoint, got "${opts.answers}"`);
      const print = (line: string) => process.stdout.write(line + '\n');
      const end = await walk(url, opts.answers, print);
      print(end.returnUrl ? `Sent to the ReturnUrl: ${end.url}` : `Done: ${end.url} (no ReturnUrl: the portal asks the candidate to close the tab)`);
    });
}
