import { cappedFormParser } from '../http/forms.js';

/** The console's forms have a handful of fields; more is refused before parsing (413). */
export const formParser = cappedFormParser(16, 'console');
