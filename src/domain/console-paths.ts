// The console's paths (src/console), for the console, the CLI and the links tenancy hands out.

export const CONSOLE_PREFIX = '/console';

export const CONSOLE_HOME_PATH = CONSOLE_PREFIX;
export const CONSOLE_LOGIN_PATH = `${CONSOLE_PREFIX}/login`;
export const CONSOLE_LOGOUT_PATH = `${CONSOLE_PREFIX}/logout`;

/** The one-time link that sets a console user's password. */
export function consoleSetPasswordPath(token: string): string {
  return `${CONSOLE_PREFIX}/set-password/${token}`;
}
