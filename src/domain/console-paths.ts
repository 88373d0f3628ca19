// The console's paths (src/console), for the console, the CLI and the links tenancy hands out.

export const CONSOLE_PREFIX = '/console';

export const CONSOLE_HOME_PATH = CONSOLE_PREFIX;
export const CONSOLE_LOGIN_PATH = `${CONSOLE_PREFIX}/login`;
export const CONSOLE_LOGOUT_PATH = `${CONSOLE_PREFIX}/logout`;
/** The candidate list; a row's candidate is under it by ExternalId. */
export const CONSOLE_LIST_PATH = `${CONSOLE_PREFIX}/candidates`;
export const CONSOLE_EXPORT_PATH = `${CONSOLE_LIST_PATH}/export.csv`;

/** The one-time link that sets a console user's password. */
export function consoleSetPasswordPath(token: string): string {
  return `${CONSOLE_PREFIX}/set-password/${token}`;
}
