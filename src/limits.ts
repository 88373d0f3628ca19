/** API request bodies larger than this get 413. */
export const BODY_LIMIT = 64 * 1024;

/**
 * The portal's forms are small: its largest real post (the details form with four fields at
 * their longest, every character percent-encoded from four UTF-8 bytes, or a page of 50
 * answers) stays under 4 KiB. Anything larger is not a form this portal made.
 */
export const PORTAL_BODY_LIMIT = 8 * 1024;
