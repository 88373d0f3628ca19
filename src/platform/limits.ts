import { LIMITS } from '../schemas/fields.js';

/**
 * The router refuses a path param longer than this (a 400), so it must pass every ExternalId create
 * accepts (255 code points) on GET and DELETE, even fully percent-encoded: up to four UTF-8 bytes a
 * code point, three characters a byte. The router measures it decoded, so this is ample. Schemas
 * bound the API's params tighter; server.ts keeps the old bound on the others.
 */
export const MAX_PARAM_LENGTH = LIMITS.externalId * 4 * 3;
/** Fastify's default bound, kept for params no schema bounds (the portal's and the reports'). */
export const UNSCHEMED_PARAM_LENGTH = 100;

/** API request bodies larger than this get 413. */
export const BODY_LIMIT = 64 * 1024;

/**
 * The portal's forms are small: its largest real post (the details form with four fields at
 * their longest, every character percent-encoded from four UTF-8 bytes, or a page of 50
 * answers) stays under 4 KiB. Anything larger is not a form this portal made.
 */
export const PORTAL_BODY_LIMIT = 8 * 1024;
