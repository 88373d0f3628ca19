// HTML templating shared by the portal and the reports: every interpolated value is escaped.
/** Markup that is already safe. Only html`` makes one. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Template tag that escapes every interpolated value unless it is Html already. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/**
 * The start of every page Assay serves, to the end of its head: the language, the title, no referrer
 * and no indexing (portal and report URLs are credentials), the icon, and the page's style sheets and script.
 */
export function pageHead(opts: { lang: string; title: string | Html; stylesheets: string[]; script?: string }): Html {
  return html`<!doctype html>
<html lang="${opts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${opts.title}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
${opts.stylesheets.map((href) => html`<link rel="stylesheet" href="${href}">\n`)}${opts.script ? html`<script src="${opts.script}" defer></script>\n` : ''}</head>`;
}
