// The console's paths (src/console), for the console, the CLI and the links tenancy hands out.

export const CONSOLE_PREFIX = '/console';

export const CONSOLE_HOME_PATH = CONSOLE_PREFIX;
export const CONSOLE_LOGIN_PATH = `${CONSOLE_PREFIX}/login`;
export const CONSOLE_LOGOUT_PATH = `${CONSOLE_PREFIX}/logout`;
/** The candidate list; a row's candidate is under it by ExternalId. */
export const CONSOLE_LIST_PATH = `${CONSOLE_PREFIX}/candidates`;
export const CONSOLE_EXPORT_PATH = `${CONSOLE_LIST_PATH}/export.csv`;

/** The form that invites a candidate to an assessment. */
export const CONSOLE_INVITE_PATH = `${CONSOLE_PREFIX}/invite`;

/** What a candidate's page can post, each to `<candidate path>/<action>`. */
export type CandidateAction = 'cancel' | 'resend' | 'erase';

/** A candidate's page in the console. */
export function consoleCandidatePath(externalId: string): string {
  return `${CONSOLE_LIST_PATH}/${encodeURIComponent(externalId)}`;
}

export function consoleCandidateActionPath(externalId: string, action: CandidateAction): string {
  return `${consoleCandidatePath(externalId)}/${action}`;
}

/** The one-time link that sets a console user's password. */
export function consoleSetPasswordPath(token: string): string {
  return `${CONSOLE_PREFIX}/set-password/${token}`;
}
