/** The path and query of a link on a portal domain, to send to the test server. */
export const localPath = (url: string): string => url.replace(/^https?:\/\/[^/]+/, '');

/** The href of a report page's link to its PDF, unescaped. */
export function pdfHref(html: string): string {
  const match = /<a class="pdf-link" href="([^"]+)"/.exec(html);
  if (!match) throw new Error('the report page has no PDF link');
  return match[1]!.replace(/&amp;/g, '&');
}
