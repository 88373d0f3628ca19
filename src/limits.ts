/** Request bodies larger than this get 413, on the API and the portal alike. */
export const BODY_LIMIT = 64 * 1024;
