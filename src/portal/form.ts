import { cappedFormParser } from '../http/forms.js';

/** Fields a portal form may carry beyond its answers: the CSRF token, the button, the details and spare. */
const EXTRA_FIELDS = 8;

/** The urlencoded parser for the portal's forms: a few more fields than the largest real page has. */
export function formParser(maxItemsPerPage: number): (body: string) => Record<string, unknown> {
  return cappedFormParser(maxItemsPerPage + EXTRA_FIELDS, 'portal');
}
